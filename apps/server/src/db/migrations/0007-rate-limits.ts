import type { Kysely, Migration } from 'kysely';

/** Fixed-window request counters shared by every instance (e.g. the public voice-command endpoint). */
export const m0007RateLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('hits', 'integer', (col) => col.notNull())
      .addColumn('window_started_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limits_window_started_at')
      .on('rate_limits')
      .column('window_started_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limits').execute();
  },
};
