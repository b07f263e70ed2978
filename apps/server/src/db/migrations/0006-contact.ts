import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Messages sent through the public contact form. */
export const m0006Contact: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('contact_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('ip', 'text', (col) => col.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('contact_messages_ip_created_at')
      .on('contact_messages')
      .columns(['ip', 'created_at'])
      .execute();
    await db.schema.createIndex('contact_messages_created_at').on('contact_messages').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('contact_messages').execute();
  },
};
