import type { Db } from '../../db';
import type { AiApiKeysTable } from '../../db/schema';

export type ApiKeyRow = AiApiKeysTable;

/** Plain queries on ai_api_keys. */
export const createApiKeysRepository = (db: Db) => ({
  insert: async (row: ApiKeyRow) => {
    await db.insertInto('ai_api_keys').values(row).execute();
  },
  list: () => db.selectFrom('ai_api_keys').selectAll().orderBy('created_at', 'desc').orderBy('id').execute(),
  findById: (id: string) => db.selectFrom('ai_api_keys').selectAll().where('id', '=', id).executeTakeFirst(),
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
