import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The server keeps each person's read state (docs/PRODUCT.md#notifications), so a new device shows what was sent
 * while they were away and what they read already:
 * - `notification_marks`: per user, everything up to `read_through` is read ("Mark all as read") and everything up
 *   to `cleared_through` is hidden for them ("Clear all");
 * - `notification_reads`: single notifications read above the marker (one row each; removed once a marker passes them).
 */
export const m0028NotificationReads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notification_marks')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('read_through', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('cleared_through', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('notification_reads')
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('seq', 'bigint', (col) => col.notNull().references('notifications.seq').onDelete('cascade'))
      .addColumn('read_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('notification_reads_pk', ['user_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notification_reads').execute();
    await db.schema.dropTable('notification_marks').execute();
  },
};
