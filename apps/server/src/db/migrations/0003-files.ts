import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Stored files (metadata; the bytes live in the blob store under blob_key). */
export const m0003Files: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('owner_key', 'text', (col) => col.notNull())
      .addColumn('file_name', 'text', (col) => col.notNull())
      .addColumn('size', 'bigint', (col) => col.notNull())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('sha256', 'text', (col) => col.notNull())
      .addColumn('blob_key', 'text', (col) => col.notNull().unique())
      .addColumn('upload_date', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('files_owner_upload_date')
      .on('files')
      .columns(['owner_key', 'upload_date', 'id'])
      .execute();
    // Covers the per-owner count and sum (stats, quota) without reading the rows.
    await db.schema.createIndex('files_owner_size').on('files').columns(['owner_key', 'size']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('files').execute();
  },
};
