import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import type { Role } from '@atrium/contracts';

/** The signed-in user as services see it. */
export interface SessionUser {
  id: string;
  ownerKey: string;
  role: Role;
  name: string | null;
  nickname: string | null;
  email: string | null;
  picture: string | null;
}

export const isAdmin = (user: SessionUser): boolean => user.role === 'admin';

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  idleMs: number;
  absoluteMs: number;
}

/** Last-seen is written at most this often, so a busy session does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Server-side sessions: the browser holds an opaque random token in an
 * HttpOnly cookie; the database holds only its hash, the user and expiry.
 */
export const createSessionService = ({ db, clock, idleMs, absoluteMs }: SessionServiceDeps) => ({
  async create(
    userId: string,
    meta: { userAgent?: string | undefined; ip?: string | undefined } = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    await db
      .insertInto('sessions')
      .values({
        id: hashToken(token),
        user_id: userId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(new Date(now.getTime() + absoluteMs)),
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
        ip: meta.ip ?? null,
      })
      .execute();
    return token;
  },

  /** The session's user, or null when the token is unknown, idle too long or past its absolute expiry. */
  async resolve(token: string): Promise<SessionUser | null> {
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    const id = hashToken(token);
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.last_seen_at',
        'sessions.expires_at',
        'users.id',
        'users.owner_key',
        'users.role',
        'users.name',
        'users.nickname',
        'users.email',
        'users.picture',
      ])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const now = clock.now().getTime();
    const lastSeen = Date.parse(row.last_seen_at);
    if (now >= Date.parse(row.expires_at) || now - lastSeen >= idleMs) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      return null;
    }
    if (now - lastSeen >= TOUCH_INTERVAL_MS) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: iso(new Date(now)) })
        .where('id', '=', id)
        .execute();
    }
    return {
      id: row.id,
      ownerKey: row.owner_key,
      role: row.role,
      name: row.name,
      nickname: row.nickname,
      email: row.email,
      picture: row.picture,
    };
  },

  async destroy(token: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
  },

  async destroyAllForUser(userId: string): Promise<void> {
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  },

  /** Deletes sessions past their absolute expiry or idle limit. */
  async sweep(): Promise<number> {
    const now = clock.now().getTime();
    const result = await db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('expires_at', '<=', iso(new Date(now))), eb('last_seen_at', '<=', iso(new Date(now - idleMs)))]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});

export type SessionService = ReturnType<typeof createSessionService>;
