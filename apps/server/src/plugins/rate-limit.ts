import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { RateLimiter } from '../lib/rate-limiter';

/**
 * A per-client-IP limit declared next to a route (`config: { rateLimit: { … } }`, after Infisical's routers),
 * counted in the database by `lib/rate-limiter.ts` so it holds across instances.
 */
export interface RouteRateLimit {
  /** The counter's name: keys are `<name>:ip:<client IP>`. */
  name: string;
  /** Requests (or successes) allowed per window. */
  max: number;
  windowMs: number;
  /** The 429 message. */
  message: string;
  /**
   * `request` (default): every request counts, before its body is read. `success`: only answers below 400 count
   * (e.g. messages accepted), and a client already at the limit is refused before its body is read.
   */
  count?: 'request' | 'success';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteRateLimit;
  }
}

const keyOf = (limit: RouteRateLimit, request: FastifyRequest) => `${limit.name}:ip:${request.ip}`;

const limited = (message: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

/**
 * Enforces every route's declared `rateLimit` (429 `RATE_LIMITED` with `Retry-After`). Returns a sweep that deletes
 * the counters of finished windows of every declared limit (a scheduled job runs it).
 */
export function enforceRateLimits(app: FastifyInstance, limiter: RateLimiter) {
  const declared = new Map<string, number>();
  app.addHook('onRoute', (route) => {
    const limit = (route.config as { rateLimit?: RouteRateLimit } | undefined)?.rateLimit;
    if (limit) declared.set(limit.name, Math.max(declared.get(limit.name) ?? 0, limit.windowMs));
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const limit = request.routeOptions.config.rateLimit;
    if (!limit) return done();
    check(request, limit).then(() => done(), done);
  });

  const check = async (request: FastifyRequest, limit: RouteRateLimit) => {
    const key = keyOf(limit, request);
    if ((limit.count ?? 'request') === 'request') {
      await limiter.consume({ key, max: limit.max, windowMs: limit.windowMs, message: limit.message });
      return;
    }
    const { hits, retryAfterSeconds } = await limiter.peek(key, limit.windowMs);
    if (hits >= limit.max) throw limited(limit.message, retryAfterSeconds);
  };

  // Successes are counted before the answer leaves, so the client's next request already sees them.
  app.addHook('onSend', async (request, reply, payload) => {
    const limit = request.routeOptions.config.rateLimit;
    if (limit?.count === 'success' && reply.statusCode < 400) await limiter.hit(keyOf(limit, request), limit.windowMs);
    return payload;
  });

  return {
    /** Deletes the counters of every declared limit whose window has ended. */
    async sweep(): Promise<void> {
      for (const [name, windowMs] of declared) await limiter.sweep(`${name}:`, windowMs);
    },
  };
}
