import type { Db } from '../../db';
import type { SessionsTable } from '../../db/schema';

/** Plain queries on the `sessions` table (ids are token hashes); the rules live in sessions.service.ts. */
export const createSessionsRepository = (db: Db) => ({
  /** The session with its user's columns, for turning a cookie into an actor. */
  findWithUser: (id: string) =>
    db
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

  /** Deletes every session of the user; answers how many. */
  async deleteAllOfUser(userId: string): Promise<number> {
    const deleted = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(deleted.numDeletedRows);
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

  /** Deletes the sessions that expired at `expiredAt` or were last seen at `idleSince` or before; answers how many. */
  async deleteStale(expiredAt: string, idleSince: string): Promise<number> {
    const result = await db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', expiredAt), eb('last_seen_at', '<=', idleSince)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
