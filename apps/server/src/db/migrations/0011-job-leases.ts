import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Leases of the scheduled jobs that must run on one instance at a time (`jobs/`): a job runs only on the instance
 * that holds (or takes over an expired) lease on its name.
 */
export const m0011JobLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('holder', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('job_leases').execute();
  },
};
