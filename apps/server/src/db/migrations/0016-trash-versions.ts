import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Trash and versions (docs/PRODUCT.md#trash-and-versions). Deleting a file or folder moves it to the trash of its
 * space: `trashed_at` and `trashed_by` on the item itself; `trash_root_id` on what went with a trashed folder (the
 * folder's id), so lists, links, shares and the trash filter on one column and a restore or purge finds a folder's
 * contents by one key. A trashed item frees its name (a file's `name_key` becomes null, a folder's `/trash/<id>`) and
 * keeps its `folder_id`/`parent_id`, the place a restore puts it back.
 * `file_versions`: the older contents of a file (the current one stays in `files`), purged with it.
 */
export const m0016TrashVersions: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['files', 'folders']) {
      await db.schema.alterTable(table).addColumn('trashed_at', 'text').execute();
      await db.schema
        .alterTable(table)
        .addColumn('trashed_by', 'text', (col) => col.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable(table).addColumn('trash_root_id', 'text').execute();
      await db.schema.createIndex(`${table}_trashed_at`).on(table).column('trashed_at').execute();
      await db.schema.createIndex(`${table}_trash_root`).on(table).column('trash_root_id').execute();
    }
    await db.schema
      .createTable('file_versions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('blob_key', 'text', (col) => col.notNull())
      .addColumn('size', 'bigint', (col) => col.notNull())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('sha256', 'text', (col) => col.notNull())
      .addColumn('uploaded_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('file_versions_file').on('file_versions').columns(['file_id', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('file_versions').execute();
    for (const table of ['files', 'folders']) {
      await db.schema.dropIndex(`${table}_trash_root`).execute();
      await db.schema.dropIndex(`${table}_trashed_at`).execute();
      await db.schema.alterTable(table).dropColumn('trash_root_id').execute();
      await db.schema.alterTable(table).dropColumn('trashed_by').execute();
      await db.schema.alterTable(table).dropColumn('trashed_at').execute();
    }
  },
};
