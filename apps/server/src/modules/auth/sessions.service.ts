import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import { userActor, type UserActor } from '../../auth/actor';

/** The signed-in user as services see it: the `user` actor (auth/actor.ts). */
export type SessionUser = UserActor;

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  idleMs: number;
  absoluteMs: number;
  /** Told (and awaited) after sessions end; `onEnded` adds to it. */
  endListeners?: Set<SessionEndListener>;
}

/** What ended: one session (signed out, replaced or expired) or every session of a user. */
export type SessionEnd = { sessionId: string } | { userId: string };
export type SessionEndListener = (ended: SessionEnd) => Promise<void>;

/** Last-seen is written at most this often, so a busy session does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
/** A session's id (the `sessions` row key) from its cookie token: its SHA-256, never the token itself. */
export const sessionIdOf = hashToken;
/** Ids are checked for liveness this many at a time. */
const LIVE_CHECK_BATCH = 500;

const tell = async (listeners: Set<SessionEndListener>, ended: SessionEnd) => {
  await Promise.allSettled([...listeners].map((listener) => listener(ended)));
};

/**
 * Server-side sessions: the browser holds an opaque random token in an
 * HttpOnly cookie; the database holds only its hash, the user and expiry.
 */
export const createSessionService = ({
  db,
  clock,
  idleMs,
  absoluteMs,
  endListeners = new Set(),
}: SessionServiceDeps) => ({
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
        'users.disabled_at',
      ])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    // A disabled account's sessions were ended when it was disabled; any left over count for nothing.
    if (row.disabled_at !== null) return null;
    const now = clock.now().getTime();
    const lastSeen = Date.parse(row.last_seen_at);
    if (now >= Date.parse(row.expires_at) || now - lastSeen >= idleMs) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      await tell(endListeners, { sessionId: id });
      return null;
    }
    if (now - lastSeen >= TOUCH_INTERVAL_MS) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: iso(new Date(now)) })
        .where('id', '=', id)
        .execute();
    }
    return userActor(row);
  },

  async destroy(token: string): Promise<void> {
    const sessionId = hashToken(token);
    const deleted = await db.deleteFrom('sessions').where('id', '=', sessionId).executeTakeFirst();
    // Only a session that existed has streams to end: unknown cookies announce nothing.
    if (deleted.numDeletedRows > 0n) await tell(endListeners, { sessionId });
  },

  /**
   * Ends every session of the user (or every one but `exceptSessionId`) and, through the listeners, their live
   * streams on every instance. Returns how many ended.
   */
  async destroyAllForUser(userId: string, exceptSessionId?: string): Promise<number> {
    if (exceptSessionId === undefined) {
      const deleted = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      await tell(endListeners, { userId });
      return Number(deleted.numDeletedRows);
    }
    const ended = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', exceptSessionId)
      .returning('id')
      .execute();
    for (const { id } of ended) await tell(endListeners, { sessionId: id });
    return ended.length;
  },

  /** Calls `listener` whenever a session, or all of a user's sessions, end; the ending waits for it. */
  onEnded(listener: SessionEndListener): void {
    endListeners.add(listener);
  },

  /** Which of these session ids are still valid: present, not idle too long, not past absolute expiry. */
  async liveSessionIds(ids: readonly string[]): Promise<Set<string>> {
    const now = clock.now().getTime();
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += LIVE_CHECK_BATCH) {
      const rows = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', ids.slice(i, i + LIVE_CHECK_BATCH))
        .where('expires_at', '>', iso(new Date(now)))
        .where('last_seen_at', '>', iso(new Date(now - idleMs)))
        .execute();
      for (const row of rows) live.add(row.id);
    }
    return live;
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
