import { sql } from 'kysely';
import type { Db } from '../db';
import { AppError } from '../errors';
import { iso, type Clock } from './time';

export interface RateLimit {
  /** What is counted, e.g. `voice-command:ip:203.0.113.7`. */
  key: string;
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
  /** The 429 message. */
  message: string;
}

/**
 * Fixed-window request counters in the database (table `rate_limits`), so every instance
 * sees the same counts. Each request is counted atomically by one upsert that returns the
 * new count; over the limit → 429 `RATE_LIMITED` with `Retry-After`.
 */
export const createRateLimiter = ({ db, clock }: { db: Db; clock: Clock }) => ({
  async consume({ key, max, windowMs, message }: RateLimit): Promise<void> {
    const now = clock.now();
    const nowIso = iso(now);
    const cutoff = iso(new Date(now.getTime() - windowMs));
    const row = await db
      .insertInto('rate_limits')
      .values({ key, hits: 1, window_started_at: nowIso })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`CASE WHEN rate_limits.window_started_at <= ${cutoff} THEN 1 ELSE rate_limits.hits + 1 END`,
          window_started_at: sql<string>`CASE WHEN rate_limits.window_started_at <= ${cutoff} THEN ${nowIso} ELSE rate_limits.window_started_at END`,
        }),
      )
      .returning(['hits', 'window_started_at'])
      .executeTakeFirstOrThrow();
    if (Number(row.hits) <= max) return;
    const resetAt = Date.parse(row.window_started_at) + windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  },

  /** Deletes counters whose window started before `olderThanMs` ago. */
  async sweep(olderThanMs: number): Promise<void> {
    const cutoff = iso(new Date(clock.now().getTime() - olderThanMs));
    await db.deleteFrom('rate_limits').where('window_started_at', '<=', cutoff).execute();
  },
});

export type RateLimiter = ReturnType<typeof createRateLimiter>;
