import type { Db } from '../../db';
import type { SessionEndReason, SessionsTable } from '../../db/schema';
import { ACTOR_USER_COLUMNS } from '../../db/actor-columns';

/** Plain queries on the `sessions` table (ids are token hashes); the rules live in sessions.service.ts. */
export const createSessionsRepository = (db: Db) => ({
  /** The session with its user's columns, for turning a cookie into an actor. */
  findWithUser: (id: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.last_seen_at', 'sessions.expires_at', ...ACTOR_USER_COLUMNS])
      .where('sessions.id', '=', id)
      .executeTakeFirst(),

  async insert(row: SessionsTable): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  async touch(id: string, lastSeenAt: string): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute();
  },

  /** Deletes one session; answers whether it existed. */
  async delete(id: string): Promise<boolean> {
    const deleted = await db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  },

  /** Deletes one session; answers whose it was, or undefined when it did not exist. */
  async deleteReturningUser(id: string): Promise<string | undefined> {
    const row = await db.deleteFrom('sessions').where('id', '=', id).returning('user_id').executeTakeFirst();
    return row?.user_id;
  },

  /** Deletes every session of the user; answers the ids deleted. */
  async deleteAllOfUser(userId: string): Promise<string[]> {
    const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
    return rows.map((row) => row.id);
  },

  /** Deletes every session of the user but one; answers the ids deleted. */
  async deleteOthersOfUser(userId: string, keepId: string): Promise<string[]> {
    const rows = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keepId)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  },

  /** Which of `ids` expire after `expiresAfter` and were seen after `seenAfter`. */
  async liveAmong(ids: readonly string[], expiresAfter: string, seenAfter: string): Promise<string[]> {
    const rows = await db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', ids)
      .where('expires_at', '>', expiresAfter)
      .where('last_seen_at', '>', seenAfter)
      .execute();
    return rows.map((row) => row.id);
  },

  /** Deletes the sessions that expired at `expiredAt` or were last seen at `idleSince` or before; answers them. */
  async deleteStale(expiredAt: string, idleSince: string): Promise<{ id: string; user_id: string }[]> {
    return db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', expiredAt), eb('last_seen_at', '<=', idleSince)]))
      .returning(['id', 'user_id'])
      .execute();
  },

  /** Remembers why sessions ended (a session remembered twice keeps its first reason). */
  async rememberEnded(rows: { id: string; user_id: string }[], reason: SessionEndReason, endedAt: string) {
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('ended_sessions')
        .values(rows.slice(i, i + 200).map((row) => ({ id: row.id, user_id: row.user_id, reason, ended_at: endedAt })))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  },

  /** Why a session ended, if it is remembered, and whether its user is disabled now. */
  findEnded: (id: string) =>
    db
      .selectFrom('ended_sessions')
      .leftJoin('users', 'users.id', 'ended_sessions.user_id')
      .select(['ended_sessions.reason', 'users.disabled_at'])
      .where('ended_sessions.id', '=', id)
      .executeTakeFirst(),

  /** Whether a session still stored belongs to a disabled user (its rows count for nothing). */
  findDisabledOwner: (id: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('users.disabled_at')
      .where('sessions.id', '=', id)
      .where('users.disabled_at', 'is not', null)
      .executeTakeFirst(),

  /** Forgets ended sessions older than `before`; answers how many. */
  async deleteEndedBefore(before: string): Promise<number> {
    const result = await db.deleteFrom('ended_sessions').where('ended_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
