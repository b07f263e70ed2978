import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Background analysis of stored files (docs/PRODUCT.md#file-insights): the durable job queue `analysis_jobs` (one job
 * per file, kind and content hash; claimed with leases so a crashed instance's jobs are taken over) and each file's
 * `file_insights`. Both go with their file (ON DELETE CASCADE).
 */
export const m0018Analysis: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('analysis_jobs')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('content_sha', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('run_after', 'text', (col) => col.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('progress', 'real', (col) => col.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('analysis_jobs_identity')
      .on('analysis_jobs')
      .columns(['file_id', 'kind', 'content_sha'])
      .unique()
      .execute();
    await db.schema
      .createIndex('analysis_jobs_claim')
      .on('analysis_jobs')
      .columns(['kind', 'state', 'run_after'])
      .execute();
    await db.schema
      .createTable('file_insights')
      .addColumn('file_id', 'text', (col) => col.primaryKey().references('files.id').onDelete('cascade'))
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('progress', 'real')
      .addColumn('content_sha', 'text', (col) => col.notNull())
      .addColumn('text', 'text')
      .addColumn('transcript', 'text')
      .addColumn('caption', 'text')
      .addColumn('tags', 'text')
      .addColumn('objects', 'text')
      .addColumn('faces', 'text')
      .addColumn('colors', 'text')
      .addColumn('engine', 'text')
      .addColumn('model_version', 'text')
      .addColumn('analysed_at', 'text')
      .addColumn('error', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    // A workspace's choice (no row: `on`): `on`, `no-faces` (no face detection, faces dropped) or `off`.
    await db.schema
      .createTable('analysis_settings')
      .addColumn('workspace_id', 'text', (col) => col.primaryKey().references('workspaces.id').onDelete('cascade'))
      .addColumn('analysis', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('analysis_settings').execute();
    await db.schema.dropTable('file_insights').execute();
    await db.schema.dropTable('analysis_jobs').execute();
  },
};
