import type { Db } from '../../db';
import type { AiModelsTable } from '../../db/schema';

/** Plain queries on ai_models (migration 0041). */
export const createAiModelsRepository = (db: Db) => ({
  insert: async (row: AiModelsTable) => {
    await db.insertInto('ai_models').values(row).execute();
  },
  list: (): Promise<AiModelsTable[]> =>
    db.selectFrom('ai_models').selectAll().orderBy('uploaded_at').orderBy('id').execute(),
  findById: (id: string): Promise<AiModelsTable | undefined> =>
    db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst(),
  findByRole: (role: string): Promise<AiModelsTable | undefined> =>
    db.selectFrom('ai_models').selectAll().where('role', '=', role).executeTakeFirst(),
  /** Gives `role` to this model alone (or takes its role away with null), in one transaction. */
  setRole: (id: string, role: string | null) =>
    db.transaction().execute(async (trx) => {
      if (role !== null) await trx.updateTable('ai_models').set({ role: null }).where('role', '=', role).execute();
      await trx.updateTable('ai_models').set({ role }).where('id', '=', id).execute();
    }),
  remove: async (id: string) => {
    await db.deleteFrom('ai_models').where('id', '=', id).execute();
  },
});

export type AiModelsRepository = ReturnType<typeof createAiModelsRepository>;
