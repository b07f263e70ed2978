import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { APP_PASSWORD_TEXTS, type AppPasswordRecord, type CreatedAppPassword } from '@atrium/contracts';
import { isAdmin, userActor, type UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { RateLimiter } from '../../lib/rate-limiter';
import { iso, type Clock } from '../../lib/time';
import type { AppPasswordRow, AppPasswordsRepository } from './app-passwords.repository';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

const present = (row: AppPasswordRow): AppPasswordRecord => ({
  id: row.id,
  name: row.name,
  ownerKey: row.owner_key,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  lastUsedIp: row.last_used_ip,
  revokedAt: row.revoked_at,
});

export interface AppPasswordLimits {
  maxPerIp: number;
  maxPerUsername: number;
  windowMs: number;
}

/**
 * App passwords (docs/PRODUCT.md#app-passwords): 32 random bytes, base64url, shown once; stored as SHA-256 (the
 * secret has full entropy, so a slow hash adds nothing). `verify` is HTTP Basic's check: the login name must be the
 * person's owner key, the person enabled, the password live. Failures count on the sign-in counters (`login:ip:…`,
 * `login:user:…`, lib/rate-limiter.ts), so guesses through Basic and through the sign-in form share one limit.
 */
export function createAppPasswordsService({
  repo,
  clock,
  limiter,
  limits,
}: {
  repo: AppPasswordsRepository;
  clock: Clock;
  limiter: RateLimiter;
  limits: AppPasswordLimits;
}) {
  const LAST_USED_RESOLUTION_MS = 60_000;
  const keysOf = (ip: string, loginName: string) => ({
    ip: `login:ip:${ip}`,
    user: `login:user:${loginName.trim().toLowerCase().slice(0, 200)}`,
  });
  async function mine(actor: UserActor, id: string): Promise<AppPasswordRow> {
    const row = await repo.findById(id);
    // Someone else's password looks exactly like a missing one (admins use the admin routes).
    if (!row || row.user_id !== actor.id) throw new AppError('NOT_FOUND', APP_PASSWORD_TEXTS.notFound);
    return row;
  }
  async function revokeRow(row: AppPasswordRow): Promise<AppPasswordRecord> {
    if (!row.revoked_at) await repo.revoke(row.id, iso(clock.now()));
    return present((await repo.findById(row.id)) ?? row);
  }
  return {
    async create(actor: UserActor, name: string): Promise<CreatedAppPassword> {
      const password = randomBytes(32).toString('base64url');
      const id = randomUUID();
      await repo.insert({
        id,
        user_id: actor.id,
        name,
        password_hash: hashOf(password),
        created_at: iso(clock.now()),
        last_used_at: null,
        last_used_ip: null,
        revoked_at: null,
      });
      return { id, name, password };
    },
    list: async (actor: UserActor) => (await repo.list(actor.id)).map(present),
    /** Every person's app passwords (admins). */
    listAll: async () => (await repo.list()).map(present),
    revoke: async (actor: UserActor, id: string) => revokeRow(await mine(actor, id)),
    /** An admin revokes anyone's app password. */
    async revokeAny(actor: UserActor, id: string): Promise<AppPasswordRecord> {
      if (!isAdmin(actor)) throw new AppError('NOT_FOUND', APP_PASSWORD_TEXTS.notFound);
      const row = await repo.findById(id);
      if (!row) throw new AppError('NOT_FOUND', APP_PASSWORD_TEXTS.notFound);
      return revokeRow(row);
    },
    /**
     * The person signing in with `loginName` (their owner key) and an app password, or null. Throws 429 once the
     * client IP or the login name has too many recent failures; each failure counts.
     */
    async verify(loginName: string, password: string, ip: string): Promise<UserActor | null> {
      const keys = keysOf(ip, loginName);
      const [byIp, byUser] = await Promise.all([
        limiter.peek(keys.ip, limits.windowMs),
        limiter.peek(keys.user, limits.windowMs),
      ]);
      if (byIp.hits >= limits.maxPerIp || byUser.hits >= limits.maxPerUsername) {
        throw new AppError('RATE_LIMITED', APP_PASSWORD_TEXTS.tooMany, {
          headers: { 'retry-after': String(Math.max(byIp.retryAfterSeconds, byUser.retryAfterSeconds)) },
        });
      }
      const row =
        password.length > 0 && password.length <= 200 ? await repo.findActiveByHash(hashOf(password)) : undefined;
      const expected = Buffer.from(row?.owner_key ?? '');
      const given = Buffer.from(loginName);
      const nameMatches = expected.length === given.length && timingSafeEqual(expected, given);
      if (!row || !nameMatches || row.disabled_at !== null) {
        await limiter.hit(keys.ip, limits.windowMs);
        await limiter.hit(keys.user, limits.windowMs);
        return null;
      }
      const now = clock.now();
      if (
        !row.last_used_at ||
        row.last_used_ip !== ip ||
        now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS
      ) {
        await repo.touch(row.password_id, iso(now), ip);
      }
      return userActor(row);
    },
  };
}

export type AppPasswordsService = ReturnType<typeof createAppPasswordsService>;
