import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram, collectDefaultMetrics, type Registry } from 'prom-client';
import { AppError } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasBearer(request: FastifyRequest, token: string): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * Prometheus metrics at /metrics: process defaults, HTTP request durations by route, and the application's
 * (`app-metrics.ts`, registered on the same registry).
 * Off unless a token is configured (METRICS_TOKEN): then /metrics answers 404 like any
 * unknown path; with a token it requires `Authorization: Bearer <token>` (401 otherwise).
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { token: string | undefined; registry: Registry },
): void {
  const { token, registry } = options;
  if (!token) {
    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async () => {
      throw new AppError('NOT_FOUND');
    });
    return;
  }
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_errors_total',
    help: 'HTTP answers with status >= 500',
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ method: request.method, route });
  });

  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!hasBearer(request, token)) {
      throw new AppError('UNAUTHENTICATED', 'Send the metrics token as Authorization: Bearer <token>.', {
        headers: { 'www-authenticate': 'Bearer realm="metrics"' },
      });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
