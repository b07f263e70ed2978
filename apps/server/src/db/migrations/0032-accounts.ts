import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Invitations and local accounts (docs/PRODUCT.md#invitations): a local account's password (`local_credentials`;
 * the username unique in any letter case through `username_key`, its lower case), invitations by email to the
 * instance or to a workspace, and password reset links. Tokens are stored only as their SHA-256 (hex). Who may
 * invite and self-sign-up live in the admin's `settings` table.
 */
export const m0032Accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('local_credentials')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('username', 'text', (col) => col.notNull())
      .addColumn('username_key', 'text', (col) => col.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('password_changed_at', 'text')
      .execute();
    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('workspace_id', 'text')
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('invited_by', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('accepted_user_id', 'text')
      .addColumn('for_workspace', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();
    await db.schema.createIndex('invitations_workspace').on('invitations').column('workspace_id').execute();
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('password_resets').execute();
    await db.schema.dropTable('invitations').execute();
    await db.schema.dropTable('local_credentials').execute();
  },
};
