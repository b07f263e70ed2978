import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { endpoint, HealthResponse, ReadinessResponse, type ReadinessCheck } from '@atrium/contracts';
import { canSeeSystemDetails } from '../../auth/policies/admin';
import { routesOf } from '../../plugins/route';

/** For probes, not the web: outside the endpoint table (`ENDPOINTS`), declared here the same way. */
const HEALTH = {
  live: endpoint({ method: 'GET', path: '/healthz', response: HealthResponse }),
  ready: endpoint({ method: 'GET', path: '/readyz', response: ReadinessResponse }),
};

export type ReadinessProbe = () => Promise<ReadinessCheck>;

/** Runs every probe at once, timing each; a probe that throws is an `error` check (and a warning in the log). */
export function runProbes(
  probes: Map<string, ReadinessProbe>,
  log: FastifyBaseLogger,
): Promise<[string, ReadinessCheck][]> {
  return Promise.all(
    [...probes].map(async ([name, probe]): Promise<[string, ReadinessCheck]> => {
      const started = performance.now();
      try {
        const check = await probe();
        return [name, { ...check, latencyMs: Math.round(performance.now() - started) }];
      } catch (error) {
        log.warn({ err: error, probe: name }, 'readiness probe failed');
        return [name, { status: 'error', message: error instanceof Error ? error.message : String(error) }];
      }
    }),
  );
}

/**
 * /healthz: the process is alive. /readyz: every dependency answers (the
 * database always; modules add their own probes such as blob store, bus, AI).
 * Anyone sees each probe's status and the overall status code; the details
 * (messages, latencies) go to signed-in admins only, and failures to the log.
 */
export function registerHealthRoutes(app: FastifyInstance, probes: Map<string, ReadinessProbe>) {
  const serve = routesOf(app, { config: { access: 'public' }, tags: ['health'] });

  serve(HEALTH.live, {
    summary: 'Liveness',
    logLevel: 'warn',
    handler: async () => ({ status: 'ok' as const }),
  });
  serve(HEALTH.ready, {
    summary: 'Readiness of every dependency',
    responses: { 503: ReadinessResponse },
    logLevel: 'warn',
    handler: async (request, reply) => {
      const entries = await runProbes(probes, request.log);
      // A closing instance still serves what reaches it, but a balancer that checks should send no more.
      if (app.isClosing()) entries.push(['shutdown', { status: 'error', message: 'The server is shutting down.' }]);
      const failed = entries.some(([, check]) => check.status === 'error');
      // A database that is down must not turn readiness into a 500: no session is read then.
      const user = await request.currentUser().catch(() => null);
      const detailed = canSeeSystemDetails(user);
      const checks = Object.fromEntries(
        detailed ? entries : entries.map(([name, check]) => [name, { status: check.status }]),
      );
      return reply.status(failed ? 503 : 200).send({ status: failed ? 'error' : 'ok', checks });
    },
  });
}
