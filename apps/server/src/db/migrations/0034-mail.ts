import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Email (docs/PRODUCT.md#email): each person's opt-in (`mail_preferences`, deleted with the person) and the durable
 * outbox (`mail_outbox`): a message is a row until it is sent, claimed with a conditional update (`claimed_until`), so
 * a slow or down SMTP server never blocks the request that caused it and a restart loses nothing.
 */
export const m0034Mail: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_preferences')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('share_notices', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('member_notices', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('daily_digest', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('last_digest_at', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('to_address', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('text_body', 'text', (col) => col.notNull())
      .addColumn('html_body', 'text', (col) => col.notNull())
      .addColumn('headers', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (col) => col.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('gave_up_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['sent_at', 'next_attempt_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_outbox').execute();
    await db.schema.dropTable('mail_preferences').execute();
  },
};
