import type { Kysely, Migration } from 'kysely';

/**
 * The admin's history of published notifications (issue 18): how many live streams each was delivered to (every
 * instance adds its own count with one atomic update) and how many Web Push sends went out or failed.
 */
export const m0019NotificationHistory: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['delivered_live', 'push_sent', 'push_failed']) {
      await db.schema
        .alterTable('notifications')
        .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['push_failed', 'push_sent', 'delivered_live']) {
      await db.schema.alterTable('notifications').dropColumn(column).execute();
    }
  },
};
