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

export interface WindowCount {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Seconds until the current window ends (at least 1). */
  retryAfterSeconds: number;
}

/** A counted hit: which window it went into (to take it back with `unhit`). */
export interface Hit extends WindowCount {
  key: string;
  windowStartedAt: string;
}

/**
 * Fixed-window counters in the database (table `rate_limits`), so every instance sees the
 * same counts. Each hit is counted atomically by one upsert that returns the new count, so
 * parallel requests cannot slip past a limit.
 */
export const createRateLimiter = ({ db, clock }: { db: Db; clock: Clock }) => {
  const limiter = {
    /** Counts one hit of `key` in a window of `windowMs` (a new window starts once it has passed). */
    async hit(key: string, windowMs: number): Promise<Hit> {
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
      const resetAt = Date.parse(row.window_started_at) + windowMs;
      return {
        key,
        windowStartedAt: row.window_started_at,
        hits: Number(row.hits),
        retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
      };
    },

    /**
     * Takes back one `hit` (an attempt refused or that turned out not to count), in the window it went into only: a
     * window started since is left alone. Counting first and taking back after keeps parallel attempts from slipping
     * past a limit (each is counted before anything is checked) while only what should count stays counted.
     */
    async unhit({ key, windowStartedAt }: Pick<Hit, 'key' | 'windowStartedAt'>): Promise<void> {
      await db
        .updateTable('rate_limits')
        .set({ hits: sql<number>`hits - 1` })
        .where('key', '=', key)
        .where('window_started_at', '=', windowStartedAt)
        .where('hits', '>', 0)
        .execute();
    },

    /** The hits of `key` in its current window, without counting one (0 when no window is open). */
    async peek(key: string, windowMs: number): Promise<WindowCount> {
      const now = clock.now().getTime();
      const row = await db
        .selectFrom('rate_limits')
        .select(['hits', 'window_started_at'])
        .where('key', '=', key)
        .executeTakeFirst();
      const resetAt = row ? Date.parse(row.window_started_at) + windowMs : now;
      if (!row || resetAt <= now) return { hits: 0, retryAfterSeconds: 1 };
      return { hits: Number(row.hits), retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
    },

    /** Counts one request; over `max` in the window → 429 `RATE_LIMITED` with `Retry-After`. */
    async consume({ key, max, windowMs, message }: RateLimit): Promise<void> {
      const { hits, retryAfterSeconds } = await limiter.hit(key, windowMs);
      if (hits > max) {
        throw new AppError('RATE_LIMITED', message, { headers: { 'retry-after': String(retryAfterSeconds) } });
      }
    },

    /** Forgets the counts of `keys` (e.g. after a successful sign-in). */
    /** Deletes these counters; answers how many there were. */
    async reset(keys: string[]): Promise<number> {
      if (keys.length === 0) return 0;
      const result = await db.deleteFrom('rate_limits').where('key', 'in', keys).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Deletes the counters under `keyPrefix` whose window started before `olderThanMs` ago. */
    async sweep(keyPrefix: string, olderThanMs: number): Promise<void> {
      const cutoff = iso(new Date(clock.now().getTime() - olderThanMs));
      await db
        .deleteFrom('rate_limits')
        .where(sql<boolean>`substr(key, 1, ${keyPrefix.length}) = ${keyPrefix}`)
        .where('window_started_at', '<=', cutoff)
        .execute();
    },
  };
  return limiter;
};

export type RateLimiter = ReturnType<typeof createRateLimiter>;
