import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A user's own settings (the file browsers' list or grid view, docs/PRODUCT.md#grid-view), one JSON object per user, so
 * they follow the user to every browser; gone with the user.
 */
export const m0021UserPreferences: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('preferences', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_preferences').execute();
  },
};
