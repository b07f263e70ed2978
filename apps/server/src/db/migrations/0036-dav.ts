import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * WebDAV state (docs/PRODUCT.md#webdav), in the database so every instance agrees: dead properties set by PROPPATCH
 * (per file or folder id, namespace and name; the value is the property's XML) and write locks (LOCK/UNLOCK: token,
 * the locked file or folder, scope, depth, owner XML, who took it, when it times out).
 */
export const m0036Dav: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dav_properties')
      .addColumn('resource_id', 'text', (col) => col.notNull())
      .addColumn('ns', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('dav_properties_pk', ['resource_id', 'ns', 'name'])
      .execute();
    await db.schema
      .createTable('dav_locks')
      .addColumn('token', 'text', (col) => col.primaryKey())
      .addColumn('resource_id', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('depth', 'text', (col) => col.notNull())
      .addColumn('owner', 'text', (col) => col.notNull())
      .addColumn('timeout_seconds', 'integer', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('dav_locks_resource').on('dav_locks').column('resource_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dav_locks').execute();
    await db.schema.dropTable('dav_properties').execute();
  },
};
