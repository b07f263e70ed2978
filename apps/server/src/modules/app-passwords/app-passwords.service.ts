import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  APP_PASSWORD_TEXTS,
  type AdminAppPasswordRecord,
  type AppPasswordRecord,
  type CreatedAppPassword,
} from '@atrium/contracts';
import { isAdmin, userActor, type UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { AppPasswordRow, AppPasswordsRepository } from './app-passwords.repository';

/** SHA-256 (hex): the secret is 32 random bytes, so a fast hash is as strong as a slow one (docs/SECURITY.md). */
export const hashAppPassword = (password: string) => createHash('sha256').update(password).digest('hex');
const digest = (text: string) => createHash('sha256').update(text).digest();

/** The longest password or login name looked at; anything longer cannot be one of ours. */
const MAX_INPUT = 200;
/** Last use is written at most this often per password (every DAV request signs in). */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The sign-in limiter's part used here (modules/auth/login-limiter.ts: per IP and per login name). */
export interface AppPasswordLimiter {
  checkIp(ip: string): Promise<void>;
  consume(ip: string, username: string): Promise<void>;
}

const present = (row: AppPasswordRow): AppPasswordRecord => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  lastUsedIp: row.last_used_ip,
});

const notFound = () => new AppError('NOT_FOUND', APP_PASSWORD_TEXTS.notFound);

/**
 * A user's app passwords (docs/PRODUCT.md#app-passwords): created with a name and shown once, listed with their last
 * use, revoked by their owner or an admin, and checked by `verify` for WebDAV's HTTP Basic sign-in.
 */
export function createAppPasswordsService(deps: {
  repo: AppPasswordsRepository;
  clock: Clock;
  limiter: AppPasswordLimiter;
}) {
  const { repo, clock, limiter } = deps;
  return {
    async create(actor: UserActor, name: string): Promise<CreatedAppPassword> {
      const password = randomBytes(32).toString('base64url');
      const id = randomUUID();
      await repo.insert({
        id,
        user_id: actor.id,
        name,
        password_hash: hashAppPassword(password),
        created_at: iso(clock.now()),
        last_used_at: null,
        last_used_ip: null,
        revoked_at: null,
      });
      return { id, name, password };
    },

    list: async (actor: UserActor): Promise<AppPasswordRecord[]> => (await repo.listActive(actor.id)).map(present),

    listAll: async (): Promise<AdminAppPasswordRecord[]> =>
      (await repo.listAllActive()).map((row) => ({ ...present(row), ownerKey: row.owner_key })),

    /** Revokes one of the actor's own passwords, or anyone's for an admin; another's is the same 404 as none. */
    async revoke(actor: UserActor, id: string): Promise<AdminAppPasswordRecord> {
      const row = await repo.findActive(id);
      if (!row || (row.user_id !== actor.id && !isAdmin(actor))) throw notFound();
      await repo.revoke(id, iso(clock.now()));
      return { ...present(row), ownerKey: row.owner_key };
    },

    /**
     * The user signing in with `loginName` (their owner key) and an app password, or null: unknown, revoked, someone
     * else's, or a disabled account. Refused with 429 while the client IP or login name is over the sign-in limit;
     * only failures count (every WebDAV request signs in, so successes must not use up the limit).
     */
    async verify(loginName: string, password: string, ip: string): Promise<UserActor | null> {
      await limiter.checkIp(ip);
      const fail = async () => {
        await limiter.consume(ip, loginName.slice(0, MAX_INPUT));
        return null;
      };
      if (loginName.length === 0 || loginName.length > MAX_INPUT || password.length > MAX_INPUT) return fail();
      const row = await repo.findActiveByHash(hashAppPassword(password));
      // Compared in constant time: the login name must be the password's owner.
      const owner = row ? digest(row.owner_key) : digest('\u0000');
      const matches = timingSafeEqual(owner, digest(loginName)) && row !== undefined;
      if (!row || !matches || row.disabled_at !== null) return fail();
      const now = clock.now();
      if (
        !row.last_used_at ||
        row.last_used_ip !== ip ||
        now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS
      ) {
        await repo.touch(row.app_password_id, iso(now), ip);
      }
      return userActor(row);
    },
  };
}

export type AppPasswordsService = ReturnType<typeof createAppPasswordsService>;
