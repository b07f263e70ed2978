import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The admin console (docs/PRODUCT.md#admin-console-users-and-audit-log): per-user status, quota and last sign-in on
 * `users`, and the append-only `audit_log` (the application only inserts and reads it; the retention job deletes
 * entries past `AUDIT_RETENTION_DAYS`).
 */
export const m0014Admin: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('quota_bytes', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('actor', 'text')
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('target', 'text')
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('request_id', 'text')
      .addColumn('details', 'text')
      .execute();
    await db.schema.createIndex('audit_log_at_id').on('audit_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor', 'at']).execute();
    await db.schema.createIndex('audit_log_action_at').on('audit_log').columns(['action', 'at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_log').execute();
    await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
    await db.schema.alterTable('users').dropColumn('quota_bytes').execute();
    await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  },
};
