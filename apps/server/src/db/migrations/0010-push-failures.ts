import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Consecutive failed Web Push sends per subscription, counted in the database so
 * every instance adds to the same count: a subscription is removed after
 * `PUSH_MAX_CONSECUTIVE_FAILURES` in a row (a success resets it).
 */
export const m0010PushFailures: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('push_subscriptions')
      .addColumn('failed_sends', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('push_subscriptions').dropColumn('failed_sends').execute();
  },
};
