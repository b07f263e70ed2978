import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Starred items (docs/PRODUCT.md#starred-and-recent): one row per person and starred file or folder (exactly one of
 * `file_id`, `folder_id`). The foreign keys remove a star with its person or when its item is purged; a star on a
 * trashed item stays (it comes back with a restore) and Starred hides it meanwhile.
 */
export const m0029Stars: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stars')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('file_id', 'text', (col) => col.references('files.id').onDelete('cascade'))
      .addColumn('folder_id', 'text', (col) => col.references('folders.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('stars_user_file').on('stars').columns(['user_id', 'file_id']).unique().execute();
    await db.schema.createIndex('stars_user_folder').on('stars').columns(['user_id', 'folder_id']).unique().execute();
    await db.schema.createIndex('stars_file').on('stars').column('file_id').execute();
    await db.schema.createIndex('stars_folder').on('stars').column('folder_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stars').execute();
  },
};
