import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A folder's files in name order (docs/PRODUCT.md#files): the folder listing and the WebDAV tree page through a
 * folder ordered by `coalesce(name_key, file_name)` then id (files stored with equal names before 0009 have no
 * name key). Without an index on that expression each page scanned and sorted the rest of the folder; with it a
 * page is a range read on both dialects.
 */
export const m0043FolderFileOrder: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index files_folder_name_order on files (folder_id, (coalesce(name_key, file_name)), id)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists files_folder_name_order`.execute(db);
  },
};
