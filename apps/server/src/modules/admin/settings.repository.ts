import type { Db } from '../../db';

/** Instance settings (table `settings`): one text value per key. */
export const createSettingsRepository = (db: Db) => ({
  async all(): Promise<Map<string, string>> {
    const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
    return new Map(rows.map((row) => [row.key, row.value]));
  },

  async get(key: string): Promise<string | undefined> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  },

  async set(key: string, value: string, updatedBy: string | null, now: string): Promise<void> {
    await db
      .insertInto('settings')
      .values({ key, value, updated_by: updatedBy, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: updatedBy, updated_at: now }))
      .execute();
  },
});

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
