import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { FoldersTable0012 } from './0012-workspaces';

interface Before {
  files: {
    id: string;
    owner_key: string;
    folder_id: string | null;
    workspace_id: string | null;
    name_key: string | null;
  };
  folders: FoldersTable0012;
}

/**
 * Files stored between migration 0012 and uploads into folders (docs/PRODUCT.md#workspaces-and-folders) have no folder:
 * each goes into its owner's personal root folder (created where missing), like every file 0012 placed. A name already
 * taken in that folder keeps the file unplaced rather than fail the start-up (it stays listed and downloadable; a move
 * places it).
 */
export const m0013PlaceFiles: Migration = {
  async up(untyped: Kysely<unknown>) {
    const db = untyped as Kysely<Before>;
    const now = new Date().toISOString();
    const owners = await db
      .selectFrom('files')
      .select('owner_key')
      .distinct()
      .where('folder_id', 'is', null)
      .where('workspace_id', 'is', null)
      .execute();
    for (const { owner_key: ownerKey } of owners) {
      let root = await db
        .selectFrom('folders')
        .select('id')
        .where('owner_key', '=', ownerKey)
        .where('parent_id', 'is', null)
        .executeTakeFirst();
      if (!root) {
        root = { id: randomUUID() };
        await db
          .insertInto('folders')
          .values({
            id: root.id,
            workspace_id: null,
            owner_key: ownerKey,
            parent_id: null,
            name: 'Personal',
            name_key: 'personal',
            created_by: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      const taken = new Set(
        (await db.selectFrom('files').select('name_key').where('folder_id', '=', root.id).execute()).map(
          (row) => row.name_key,
        ),
      );
      const unplaced = await db
        .selectFrom('files')
        .select(['id', 'name_key'])
        .where('owner_key', '=', ownerKey)
        .where('folder_id', 'is', null)
        .where('workspace_id', 'is', null)
        .execute();
      for (const file of unplaced) {
        // A same-named file already in the root (names are unique per folder): leave this one where it is.
        if (file.name_key !== null && taken.has(file.name_key)) continue;
        taken.add(file.name_key);
        await db.updateTable('files').set({ folder_id: root.id }).where('id', '=', file.id).execute();
      }
    }
  },
  async down() {
    // Placing files loses nothing: there is nothing to undo.
  },
};
