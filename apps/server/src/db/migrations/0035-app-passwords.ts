import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * App passwords (docs/PRODUCT.md#app-passwords): a user's secrets for WebDAV clients. Only the SHA-256 of the secret
 * is stored (the secret is 32 random bytes, so a fast hash is enough); revoked ones keep their row (revoked_at) until
 * the user is deleted.
 */
export const m0035AppPasswords: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_passwords')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('last_used_ip', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('app_passwords_user_id').on('app_passwords').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_passwords').execute();
  },
};
