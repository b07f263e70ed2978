import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What arrived through a file-drop link (docs/PRODUCT.md#file-drop-links): one row per file stored through it, with
 * the name it was stored under. The foreign keys remove the rows with their link or when the file is purged; a file in
 * the trash stays listed (a restore brings it back) — the links list hides it meanwhile.
 */
export const m0031LinkArrivals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('link_arrivals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('link_id', 'text', (col) => col.notNull().references('links.id').onDelete('cascade'))
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('file_name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('link_arrivals_link').on('link_arrivals').columns(['link_id', 'created_at']).execute();
    await db.schema.createIndex('link_arrivals_file').on('link_arrivals').column('file_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('link_arrivals').execute();
  },
};
