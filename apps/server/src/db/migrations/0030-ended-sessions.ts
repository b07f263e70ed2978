import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Ended sessions are remembered for a while (docs/PRODUCT.md#session-end-reasons): the id (the token's hash, never
 * the token), whose it was, why it ended (`signed_out`: signed out or revoked; `expired`: idle or past its absolute
 * expiry) and when. A 401 can then tell "signed out elsewhere" from "session expired"; a disabled account is read
 * from the user's row.
 */
export const m0030EndedSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ended_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('ended_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('ended_sessions_ended_at').on('ended_sessions').column('ended_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ended_sessions').execute();
  },
};
