import type { Db } from '../../db';
import { AppError } from '../../errors';
import { createRateLimiter } from '../../lib/rate-limiter';
import type { Clock } from '../../lib/time';

export interface LoginLimiterDeps {
  db: Db;
  clock: Clock;
  maxPerIp: number;
  maxPerUsername: number;
  windowMs: number;
}

const ipKey = (ip: string) => `login:ip:${ip}`;
const keysFor = (ip: string, username: string) => [
  { key: ipKey(ip), kind: 'ip' as const },
  { key: `login:user:${username.trim().toLowerCase().slice(0, 200)}`, kind: 'user' as const },
];

function limited(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}

/**
 * Limits sign-in attempts per client IP and per username in a fixed window.
 * Counters live in the database (`lib/rate-limiter.ts`), so every instance sees
 * the same counts, and each attempt is counted atomically *before* the password
 * is checked, so parallel guesses cannot slip past the limit. A successful
 * sign-in clears both counters: only failures add up.
 */
export const createLoginLimiter = ({ db, clock, maxPerIp, maxPerUsername, windowMs }: LoginLimiterDeps) => {
  const counters = createRateLimiter({ db, clock });
  return {
    /** Counts one attempt; throws 429 RATE_LIMITED (with Retry-After) when a limit is exceeded. */
    async consume(ip: string, username: string): Promise<void> {
      let retryAfterSeconds = 0;
      for (const { key, kind } of keysFor(ip, username)) {
        const { hits, retryAfterSeconds: wait } = await counters.hit(key, windowMs);
        if (hits > (kind === 'ip' ? maxPerIp : maxPerUsername)) retryAfterSeconds = Math.max(retryAfterSeconds, wait);
      }
      if (retryAfterSeconds > 0) throw limited(retryAfterSeconds);
    },

    /**
     * Refuses, without counting, a client IP already at its limit: its next attempt would be
     * refused whatever it sends, so this runs before the body is read.
     */
    async checkIp(ip: string): Promise<void> {
      const { hits, retryAfterSeconds } = await counters.peek(ipKey(ip), windowMs);
      if (hits >= maxPerIp) throw limited(retryAfterSeconds);
    },

    /** Clears both counters after a successful sign-in. */
    async reset(ip: string, username: string): Promise<void> {
      await counters.reset(keysFor(ip, username).map((k) => k.key));
    },

    /**
     * Lifts a lock-out at once (`npm run ops -- clear-lockout NAME_OR_IP`): the counters of `value` as a username
     * and as a client IP. Answers how many counters there were.
     */
    async clear(value: string): Promise<number> {
      return counters.reset(keysFor(value, value).map((k) => k.key));
    },

    /** Deletes counters whose window has passed. */
    async sweep(): Promise<void> {
      await counters.sweep('login:', windowMs);
    },
  };
};

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
