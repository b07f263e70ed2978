import { createHash, randomBytes } from 'node:crypto';
import type { SessionEndReason } from '@atrium/contracts/texts';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import { userActor, type UserActor } from '../../auth/actor';
import { createSessionsRepository } from './sessions.repository';

/** The signed-in user as services see it: the `user` actor (auth/actor.ts). */
export type SessionUser = UserActor;

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  idleMs: number;
  absoluteMs: number;
  /** Told (and awaited) after sessions end; `onEnded` adds to it. */
  endListeners?: Set<SessionEndListener>;
  /** How long `resolveCached` may answer from memory (default 10 s). */
  cacheTtlMs?: number;
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
/** Verified sessions kept by `resolveCached`; the oldest is dropped beyond this. */
const CACHE_MAX_ENTRIES = 50_000;

/** A session verified against the database: reused by `resolveCached` until `cachedUntil`. */
interface CachedSession {
  user: SessionUser;
  expiresAt: number;
  lastSeenAt: number;
  cachedUntil: number;
}

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
  cacheTtlMs = 10_000,
}: SessionServiceDeps) => {
  const sessions = createSessionsRepository(db);
  /** Verified sessions by id, for `resolveCached`. Forgotten before any end is told, so a stream never outlives its session. */
  const cache = new Map<string, CachedSession>();
  /** Moves on every forget: a lookup that raced with an end does not cache what it read before it. */
  let generation = 0;
  const forget = (ended: SessionEnd) => {
    generation += 1;
    if ('sessionId' in ended) cache.delete(ended.sessionId);
    else for (const [id, entry] of cache) if (entry.user.id === ended.userId) cache.delete(id);
  };

  /** The database lookup behind `resolve` and a `resolveCached` miss; caches a live session when asked to. */
  const lookup = async (token: string, remember: boolean): Promise<SessionUser | null> => {
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    const id = hashToken(token);
    const startedAt = generation;
    const row = await sessions.findWithUser(id);
    if (!row) return null;
    // A disabled account's sessions were ended when it was disabled; any left over count for nothing.
    if (row.disabled_at !== null) return null;
    const now = clock.now().getTime();
    let lastSeen = Date.parse(row.last_seen_at);
    const expiresAt = Date.parse(row.expires_at);
    if (now >= expiresAt || now - lastSeen >= idleMs) {
      await sessions.delete(id);
      await sessions.rememberEnded([{ id, user_id: row.id }], 'expired', iso(new Date(now)));
      forget({ sessionId: id });
      await tell(endListeners, { sessionId: id });
      return null;
    }
    if (now - lastSeen >= TOUCH_INTERVAL_MS) {
      await sessions.touch(id, iso(new Date(now)));
      lastSeen = now;
    }
    const user = userActor(row);
    if (remember && generation === startedAt) {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.delete(id);
      cache.set(id, { user, expiresAt, lastSeenAt: lastSeen, cachedUntil: now + cacheTtlMs });
    }
    return user;
  };

  return {
    async create(
      userId: string,
      meta: { userAgent?: string | undefined; ip?: string | undefined } = {},
    ): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      await sessions.insert({
        id: hashToken(token),
        user_id: userId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(new Date(now.getTime() + absoluteMs)),
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
        ip: meta.ip ?? null,
      });
      return token;
    },

    /** The session's user, or null when the token is unknown, idle too long or past its absolute expiry. */
    async resolve(token: string): Promise<SessionUser | null> {
      return lookup(token, false);
    },

    /**
     * `resolve`, answered from memory for up to `cacheTtlMs` after a database check (for routes that open many
     * connections, the notification stream). Never stale about ends: signing out, `destroyAllForUser` (disable,
     * revoke) and expiry forget the cached session before their listeners run, and `forgetCached` does the same
     * for ends announced by other instances. The expiry and idle limits are checked on every hit; a hit does
     * not refresh last-seen (the next database check does).
     */
    async resolveCached(token: string): Promise<SessionUser | null> {
      if (!/^[\w-]{20,100}$/.test(token)) return null;
      const id = hashToken(token);
      const entry = cache.get(id);
      if (entry) {
        const now = clock.now().getTime();
        if (now < entry.cachedUntil && now < entry.expiresAt && now - entry.lastSeenAt < idleMs) return entry.user;
        cache.delete(id);
      }
      return lookup(token, true);
    },

    /** Drops what `resolveCached` remembers of an ended session or user (ends announced by another instance). */
    forgetCached(ended: SessionEnd): void {
      forget(ended);
    },

    async destroy(token: string): Promise<void> {
      const sessionId = hashToken(token);
      const userId = await sessions.deleteReturningUser(sessionId);
      const existed = userId !== undefined;
      if (existed) await sessions.rememberEnded([{ id: sessionId, user_id: userId }], 'signed_out', iso(clock.now()));
      // After the delete: a lookup still in flight sees the generation move and caches nothing.
      forget({ sessionId });
      // Only a session that existed has streams to end: unknown cookies announce nothing.
      if (existed) await tell(endListeners, { sessionId });
    },

    /**
     * Ends every session of the user (or every one but `exceptSessionId`) and, through the listeners, their live
     * streams on every instance. Returns how many ended.
     */
    async destroyAllForUser(userId: string, exceptSessionId?: string): Promise<number> {
      if (exceptSessionId === undefined) {
        const deleted = await sessions.deleteAllOfUser(userId);
        const endedAt = iso(clock.now());
        await sessions.rememberEnded(
          deleted.map((id) => ({ id, user_id: userId })),
          'signed_out',
          endedAt,
        );
        forget({ userId });
        await tell(endListeners, { userId });
        return deleted.length;
      }
      const ended = await sessions.deleteOthersOfUser(userId, exceptSessionId);
      await sessions.rememberEnded(
        ended.map((id) => ({ id, user_id: userId })),
        'signed_out',
        iso(clock.now()),
      );
      for (const id of ended) forget({ sessionId: id });
      for (const id of ended) await tell(endListeners, { sessionId: id });
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
        const batch = ids.slice(i, i + LIVE_CHECK_BATCH);
        const rows = await sessions.liveAmong(batch, iso(new Date(now)), iso(new Date(now - idleMs)));
        for (const id of rows) live.add(id);
      }
      return live;
    },

    /**
     * Why a cookie token has no session (the 401's reason): a remembered end says signed out or expired, a disabled
     * owner says disabled; an unknown token counts as expired (its end is no longer remembered).
     */
    async endReason(token: string | undefined): Promise<SessionEndReason> {
      if (!token) return 'missing';
      if (!/^[\w-]{20,100}$/.test(token)) return 'expired';
      const id = hashToken(token);
      const ended = await sessions.findEnded(id);
      if (ended) return ended.disabled_at !== null ? 'disabled' : ended.reason;
      return (await sessions.findDisabledOwner(id)) ? 'disabled' : 'expired';
    },

    /**
     * Deletes sessions past their absolute expiry or idle limit (remembered as expired) and forgets ends older than
     * the absolute lifetime (their cookies are gone by then).
     */
    async sweep(): Promise<number> {
      const now = clock.now().getTime();
      const stale = await sessions.deleteStale(iso(new Date(now)), iso(new Date(now - idleMs)));
      await sessions.rememberEnded(stale, 'expired', iso(new Date(now)));
      await sessions.deleteEndedBefore(iso(new Date(now - absoluteMs)));
      return stale.length;
    },
  };
};

export type SessionService = ReturnType<typeof createSessionService>;
