import type { Db } from '../../db';

/** Each user's preferences (table `user_preferences`): one JSON text per user. */
export const createPreferencesRepository = (db: Db) => ({
  /** The stored JSON text, undefined when the user never changed a setting. */
  async find(userId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('user_preferences')
      .select('preferences')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.preferences;
  },

  async save(userId: string, preferences: string, now: string): Promise<void> {
    const values = { preferences, updated_at: now };
    await db
      .insertInto('user_preferences')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  },
});
