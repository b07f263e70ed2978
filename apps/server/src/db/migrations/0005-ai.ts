import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** API keys for the AI compatibility endpoints (only their SHA-256 is stored). */
export const m0005Ai: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_api_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('prefix', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ai_api_keys').execute();
  },
};
