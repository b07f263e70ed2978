import { PostgresAdapter, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Notifications (every one stored before it is delivered), the users who
 * subscribed, and their browsers' Web Push subscriptions. `seq` is the
 * notification id: monotonic, so a stream can resume after Last-Event-ID.
 */
export const m0004Notifications: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('notifications')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (col) =>
        postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
      )
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      // null: everyone; otherwise the one user it is for.
      .addColumn('audience_user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('created_by', 'text')
      // Makes one-off notifications idempotent (e.g. `welcome:<userId>`).
      .addColumn('dedupe_key', 'text', (col) => col.unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('notifications_audience_seq')
      .on('notifications')
      .columns(['audience_user_id', 'seq'])
      .execute();

    await db.schema
      .createTable('notification_subscribers')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (col) => col.notNull().unique())
      .addColumn('p256dh', 'text', (col) => col.notNull())
      .addColumn('auth', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('push_subscriptions_user_id').on('push_subscriptions').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('push_subscriptions').execute();
    await db.schema.dropTable('notification_subscribers').execute();
    await db.schema.dropTable('notifications').execute();
  },
};
