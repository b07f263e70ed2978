import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A file's modification time as its client declared it (docs/PRODUCT.md#webdav: `X-OC-Mtime` on a WebDAV PUT), ISO
 * 8601 UTC; null: the time its content was stored (`upload_date`) is the modification time. WebDAV's
 * `getlastmodified` reads it; a new content without one sets it back to null.
 */
export const m0039FileMtime: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('modified_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('files').dropColumn('modified_at').execute();
  },
};
