import { sql } from 'kysely';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';

export interface LoginLimiterDeps {
  db: Db;
  clock: Clock;
  maxPerIp: number;
  maxPerUsername: number;
  windowMs: number;
}

const keysFor = (ip: string, username: string) => [
  { key: `ip:${ip}`, kind: 'ip' as const },
  { key: `user:${username.trim().toLowerCase().slice(0, 200)}`, kind: 'user' as const },
];

/**
 * Limits sign-in attempts per client IP and per username in a fixed window.
 * Counters live in the database, so every instance sees the same counts, and
 * each attempt is counted atomically *before* the password is checked (an
 * upsert that returns the new count), so parallel guesses cannot slip past the
 * limit. A successful sign-in clears both counters: only failures add up.
 */
export const createLoginLimiter = ({ db, clock, maxPerIp, maxPerUsername, windowMs }: LoginLimiterDeps) => ({
  /** Counts one attempt; throws 429 RATE_LIMITED (with Retry-After) when a limit is exceeded. */
  async consume(ip: string, username: string): Promise<void> {
    const now = clock.now();
    const nowIso = iso(now);
    const cutoff = iso(new Date(now.getTime() - windowMs));
    let retryAfterSeconds = 0;
    for (const { key, kind } of keysFor(ip, username)) {
      const row = await db
        .insertInto('auth_failures')
        .values({ key, failures: 1, window_started_at: nowIso })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            failures: sql<number>`CASE WHEN auth_failures.window_started_at <= ${cutoff} THEN 1 ELSE auth_failures.failures + 1 END`,
            window_started_at: sql<string>`CASE WHEN auth_failures.window_started_at <= ${cutoff} THEN ${nowIso} ELSE auth_failures.window_started_at END`,
          }),
        )
        .returning(['failures', 'window_started_at'])
        .executeTakeFirstOrThrow();
      const limit = kind === 'ip' ? maxPerIp : maxPerUsername;
      if (Number(row.failures) > limit) {
        const resetAt = Date.parse(row.window_started_at) + windowMs;
        retryAfterSeconds = Math.max(retryAfterSeconds, Math.ceil((resetAt - now.getTime()) / 1000), 1);
      }
    }
    if (retryAfterSeconds > 0) {
      const minutes = Math.ceil(retryAfterSeconds / 60);
      throw new AppError(
        'RATE_LIMITED',
        `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { headers: { 'retry-after': String(retryAfterSeconds) } },
      );
    }
  },

  /** Clears both counters after a successful sign-in. */
  async reset(ip: string, username: string): Promise<void> {
    const keys = keysFor(ip, username).map((k) => k.key);
    await db.deleteFrom('auth_failures').where('key', 'in', keys).execute();
  },

  /** Deletes counters whose window has passed. */
  async sweep(): Promise<void> {
    const cutoff = iso(new Date(clock.now().getTime() - windowMs));
    await db.deleteFrom('auth_failures').where('window_started_at', '<=', cutoff).execute();
  },
});

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
