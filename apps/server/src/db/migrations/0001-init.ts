import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Users and server-side sessions. Written once for SQLite and PostgreSQL. */
export const m0001Init: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('owner_key', 'text', (col) => col.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('nickname', 'text')
      .addColumn('email', 'text')
      .addColumn('picture', 'text')
      .addColumn('role', 'text', (col) => col.notNull().defaultTo('user'))
      .addColumn('oidc_issuer', 'text')
      .addColumn('oidc_subject', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('users_oidc_identity', ['oidc_issuer', 'oidc_subject'])
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_seen_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};
