import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Failed sign-in counters for rate limiting, kept in the database so that
 * every instance behind a load balancer counts the same failures.
 */
export const m0002Identity: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('auth_failures')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('window_started_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('auth_failures_window').on('auth_failures').column('window_started_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('auth_failures').execute();
  },
};
