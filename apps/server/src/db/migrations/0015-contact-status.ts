import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The admin Messages and API keys screens (docs/PRODUCT.md#admin-console-api-keys-and-messages): when an admin read or
 * handled a contact message, and an optional expiry on API keys (null: never expires).
 */
export const m0015ContactStatus: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contact_messages').addColumn('read_at', 'text').execute();
    await db.schema.alterTable('contact_messages').addColumn('handled_at', 'text').execute();
    await db.schema.alterTable('ai_api_keys').addColumn('expires_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ai_api_keys').dropColumn('expires_at').execute();
    await db.schema.alterTable('contact_messages').dropColumn('handled_at').execute();
    await db.schema.alterTable('contact_messages').dropColumn('read_at').execute();
  },
};
