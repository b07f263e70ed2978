import type { Db } from '../../db';
import type { NcLoginFlowsTable } from '../../db/schema';
import { ACTOR_USER_COLUMNS } from '../../db/actor-columns';

/** Plain queries on nc_login_flows (migration 0038). */
export const createLoginFlowRepository = (db: Db) => ({
  insert: async (row: NcLoginFlowsTable) => {
    await db.insertInto('nc_login_flows').values(row).execute();
  },
  /** The live (not expired) flow with this login token hash. */
  byLoginHash: (hash: string, now: string) =>
    db
      .selectFrom('nc_login_flows')
      .selectAll()
      .where('login_token_hash', '=', hash)
      .where('expires_at', '>', now)
      .executeTakeFirst(),
  /** Marks a live, not yet granted flow as granted by `userId`; true when this call did it. */
  grant: async (loginHash: string, userId: string, now: string): Promise<boolean> => {
    const result = await db
      .updateTable('nc_login_flows')
      .set({ user_id: userId, granted_at: now })
      .where('login_token_hash', '=', loginHash)
      .where('expires_at', '>', now)
      .where('granted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
  /**
   * Takes the granted, live flow with this poll token hash: deletes it and returns it, once (a second poll, or a
   * parallel one, gets nothing).
   */
  take: async (pollHash: string, now: string) => {
    const row = await db
      .selectFrom('nc_login_flows')
      .innerJoin('users', 'users.id', 'nc_login_flows.user_id')
      .select(['nc_login_flows.client_name', ...ACTOR_USER_COLUMNS])
      .where('nc_login_flows.poll_token_hash', '=', pollHash)
      .where('nc_login_flows.expires_at', '>', now)
      .where('nc_login_flows.granted_at', 'is not', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const deleted = await db
      .deleteFrom('nc_login_flows')
      .where('poll_token_hash', '=', pollHash)
      .where('granted_at', 'is not', null)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1 ? row : undefined;
  },
  /** Removes expired flows; returns how many. */
  sweep: async (now: string): Promise<number> => {
    const result = await db.deleteFrom('nc_login_flows').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});

export type LoginFlowRepository = ReturnType<typeof createLoginFlowRepository>;
