import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { Hit, RateLimiter } from '../lib/rate-limiter';

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
   * (e.g. messages accepted): each request is counted before its body is read and taken back when it fails, so
   * parallel requests cannot all slip under the limit, and a client at the limit is refused before its body is read.
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

  /** The `success` hits counted for requests in progress, taken back if they fail. */
  const pending = new WeakMap<FastifyRequest, Hit>();

  const check = async (request: FastifyRequest, limit: RouteRateLimit) => {
    const key = keyOf(limit, request);
    if ((limit.count ?? 'request') === 'request') {
      await limiter.consume({ key, max: limit.max, windowMs: limit.windowMs, message: limit.message });
      return;
    }
    // Counted before anything is done (a look at the count, then counting after success, let parallel requests
    // all pass); taken back at once when over the limit, or when the answer turns out to be a failure.
    const hit = await limiter.hit(key, limit.windowMs);
    if (hit.hits > limit.max) {
      await limiter.unhit(hit);
      throw limited(limit.message, hit.retryAfterSeconds);
    }
    pending.set(request, hit);
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const hit = pending.get(request);
    if (hit) {
      pending.delete(request);
      if (reply.statusCode >= 400) await limiter.unhit(hit);
    }
    return payload;
  });

  return {
    /** Deletes the counters of every declared limit whose window has ended. */
    async sweep(): Promise<void> {
      for (const [name, windowMs] of declared) await limiter.sweep(`${name}:`, windowMs);
    },
  };
}
