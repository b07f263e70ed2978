import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * App passwords (docs/PRODUCT.md#app-passwords): one row per password a person made for a WebDAV or sync client.
 * Only the SHA-256 of the secret is kept (32 random bytes: high entropy, so a fast hash is enough). Deleted with
 * the person; a revoked one stays listed with its revocation time.
 */
export const m0035AppPasswords: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_passwords')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('last_used_ip', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('app_passwords_hash').on('app_passwords').column('password_hash').unique().execute();
    await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_passwords').execute();
  },
};
