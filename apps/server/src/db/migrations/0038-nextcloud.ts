import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Nextcloud clients (docs/PRODUCT.md#nextcloud-clients). `nc_login_flows`: Login Flow v2 requests, by the SHA-256 of
 * their poll token and of their login token (the tokens themselves are never stored), the client's name, when they
 * expire and who granted them; a row is deleted when its app password is handed out. `dav_chunked_uploads`: chunked
 * uploads under `/remote.php/dav/uploads/{user}/{transfer}` (the chunks are blobs under `dav-uploads/<id>/`), with
 * their target path (chunking v2's `Destination`) and declared total length.
 */
export const m0038Nextcloud: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('nc_login_flows')
      .addColumn('poll_token_hash', 'text', (col) => col.primaryKey())
      .addColumn('login_token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('client_name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('granted_at', 'text')
      .execute();
    await db.schema.createIndex('nc_login_flows_expires').on('nc_login_flows').column('expires_at').execute();
    await db.schema
      .createTable('dav_chunked_uploads')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('transfer_id', 'text', (col) => col.notNull())
      .addColumn('destination', 'text')
      .addColumn('total_length', 'bigint')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('dav_chunked_uploads_transfer', ['user_id', 'transfer_id'])
      .execute();
    await db.schema.createIndex('dav_chunked_uploads_updated').on('dav_chunked_uploads').column('updated_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dav_chunked_uploads').execute();
    await db.schema.dropTable('nc_login_flows').execute();
  },
};
