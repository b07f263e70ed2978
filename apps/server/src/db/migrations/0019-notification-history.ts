import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The admin's notifications (docs/PRODUCT.md#admin-console-api-keys-and-messages). History: how many live streams each
 * published notification was delivered to (every instance adds its own count with one atomic update) and how many Web
 * Push sends went out or failed. Scheduled messages: stored until the jobs home sends them (`state` pending → sending →
 * sent, or cancelled; the claim is one conditional update, so a message is sent once even with several instances).
 */
export const m0019NotificationHistory: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['delivered_live', 'push_sent', 'push_failed']) {
      await db.schema
        .alterTable('notifications')
        .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    }
    await db.schema
      .createTable('scheduled_notifications')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('audience_type', 'text', (col) => col.notNull())
      .addColumn('audience_id', 'text')
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('send_at', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull().defaultTo('pending'))
      .addColumn('claimed_at', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('cancelled_at', 'text')
      .addColumn('notification_seq', 'integer')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('scheduled_notifications_due')
      .on('scheduled_notifications')
      .columns(['state', 'send_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('scheduled_notifications').execute();
    for (const column of ['push_failed', 'push_sent', 'delivered_live']) {
      await db.schema.alterTable('notifications').dropColumn(column).execute();
    }
  },
};
