import type { Db } from '../../db';
import type { AiApiKeysTable } from '../../db/schema';

export type ApiKeyRow = AiApiKeysTable;

/** Plain queries on ai_api_keys. */
export const createApiKeysRepository = (db: Db) => ({
  insert: async (row: ApiKeyRow) => {
    await db.insertInto('ai_api_keys').values(row).execute();
  },
  /** Every key with its creator's display name (name, nickname or owner key; null once the user is gone). */
  list: () =>
    db
      .selectFrom('ai_api_keys')
      .leftJoin('users', 'users.id', 'ai_api_keys.created_by')
      .selectAll('ai_api_keys')
      .select(['users.name as creator_name', 'users.nickname as creator_nickname', 'users.owner_key as creator_key'])
      .orderBy('ai_api_keys.created_at', 'desc')
      .orderBy('ai_api_keys.id')
      .execute(),
  findById: (id: string) =>
    db
      .selectFrom('ai_api_keys')
      .leftJoin('users', 'users.id', 'ai_api_keys.created_by')
      .selectAll('ai_api_keys')
      .select(['users.name as creator_name', 'users.nickname as creator_nickname', 'users.owner_key as creator_key'])
      .where('ai_api_keys.id', '=', id)
      .executeTakeFirst(),
  findActiveByHash: (hash: string) =>
    db
      .selectFrom('ai_api_keys')
      .selectAll()
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst(),
  revoke: async (id: string, at: string) => {
    await db
      .updateTable('ai_api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  },
  touch: async (id: string, at: string) => {
    await db.updateTable('ai_api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
});

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
