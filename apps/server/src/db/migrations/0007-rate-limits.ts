import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Fixed-window request counters shared by every instance (`lib/rate-limiter.ts`): sign-in
 * failures (which had their own `auth_failures` table until now) and the public voice commands.
 */
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
    // Counts in progress are short-lived: starting them afresh is harmless.
    await db.schema.dropTable('auth_failures').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .createTable('auth_failures')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('window_started_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('auth_failures_window').on('auth_failures').column('window_started_at').execute();
    await db.schema.dropTable('rate_limits').execute();
  },
};
