import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthResponse, ReadinessResponse, type ReadinessCheck } from '@atrium/contracts';

export type ReadinessProbe = () => Promise<ReadinessCheck>;

/**
 * /healthz: the process is alive. /readyz: every dependency answers (the
 * database always; modules add their own probes such as blob store, bus, AI).
 */
export function registerHealthRoutes(app: FastifyInstance, probes: Map<string, ReadinessProbe>) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'Liveness', response: { 200: HealthResponse } },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );
  typed.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness of every dependency',
        response: { 200: ReadinessResponse, 503: ReadinessResponse },
      },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const entries = await Promise.all(
        [...probes].map(async ([name, probe]): Promise<[string, ReadinessCheck]> => {
          const started = performance.now();
          try {
            const check = await probe();
            return [name, { ...check, latencyMs: Math.round(performance.now() - started) }];
          } catch (error) {
            return [name, { status: 'error', message: error instanceof Error ? error.message : String(error) }];
          }
        }),
      );
      const checks = Object.fromEntries(entries);
      const failed = entries.some(([, check]) => check.status === 'error');
      return reply.status(failed ? 503 : 200).send({ status: failed ? 'error' : 'ok', checks });
    },
  );
}
