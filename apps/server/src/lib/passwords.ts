import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ACCOUNT_TEXTS, PASSWORD_MIN_LENGTH } from '@atrium/contracts/texts';
import { AppError } from '../errors';
import { COMMON_PASSWORDS_TEXT } from './common-passwords';

/**
 * Password hashing with node's scrypt, the one place it is written: the built-in admin's password and public links'
 * passwords. Stored as `scrypt$N$r$p$salt$hash` (salt and hash in base64url), so the cost can grow later and old
 * hashes still verify.
 */
export const PASSWORD_BUSY_MESSAGE = 'Too many password checks at once. Please try again in a moment.';

/** Gives back a slot taken with `acquire` (a second call does nothing). */
export type Release = () => void;

/**
 * At most `max` holders at once and at most `maxWaiting` waiting for a slot (first come, first served); anyone past
 * that is refused at once with 429 `RATE_LIMITED` and `Retry-After: 1`, so a burst never builds an unbounded queue.
 */
export function createSemaphore({ max, maxWaiting }: { max: number; maxWaiting: number }) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const releaser = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    };
  };
  return {
    /** A slot (waiting for one while the queue has room); 429 when the queue is full too. */
    acquire(): Promise<Release> {
      if (active < max) {
        active += 1;
        return Promise.resolve(releaser());
      }
      if (waiting.length >= maxWaiting) {
        return Promise.reject(new AppError('RATE_LIMITED', PASSWORD_BUSY_MESSAGE, { headers: { 'retry-after': '1' } }));
      }
      // The slot passes straight from the releasing holder to the first waiter (`active` stays as it is).
      return new Promise<Release>((resolve) => waiting.push(() => resolve(releaser())));
    },
    /** Holders and waiters now (tests, diagnostics). */
    stats: () => ({ active, waiting: waiting.length }),
  };
}

/**
 * Every scrypt of the server (link passwords, the admin sign-in, hashing a new password) goes through this one
 * semaphore. scrypt runs on libuv's thread pool, which file reads and writes share: unbounded, anonymous unlock
 * attempts would hold every thread and stall everyone's downloads. Two at once leave the rest of the pool
 * (`UV_THREADPOOL_SIZE`, docs/DEPLOY.md) to file I/O; sixteen more may wait a moment (a few hundred ms), the rest
 * are told to retry.
 */
export const PASSWORD_CHECKS = { max: 2, maxWaiting: 16 } as const;
export const passwordChecks = createSemaphore(PASSWORD_CHECKS);

const scrypt = async (password: string, salt: Buffer, keylen: number, options: ScryptOptions) => {
  const release = await passwordChecks.acquire();
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    release();
  }
};

const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check of a password against a stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let common: Set<string> | undefined;

/**
 * Why a new password of a local account is refused (docs/SECURITY.md#local-accounts): shorter than 12 characters, or
 * on the shipped list of common passwords (compared in lower case); undefined when it is acceptable.
 */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return ACCOUNT_TEXTS.passwordTooShort;
  common ??= new Set(COMMON_PASSWORDS_TEXT.split(' '));
  if (common.has(password.toLowerCase())) return ACCOUNT_TEXTS.passwordCommon;
  return undefined;
}
