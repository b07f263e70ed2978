import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { fileNameKey } from '../../lib/file-names';

interface Before {
  files: { id: string; owner_key: string; file_name: string; upload_date: string; name_key: string | null };
}

/**
 * One file name per owner (compared case-insensitively, `fileNameKey`): a unique index on
 * (owner_key, name_key) decides which of two simultaneous uploads of one name keeps it; the other
 * becomes `name (1).ext`. Files stored before keep their names; the oldest of each set of equal
 * names gets the key, the others keep a null key (nulls never collide), so no file is renamed.
 */
export const m0009FileNameKey: Migration = {
  async up(untyped: Kysely<unknown>) {
    const db = untyped as Kysely<Before>;
    await db.schema.alterTable('files').addColumn('name_key', 'text').execute();
    const rows = await db
      .selectFrom('files')
      .select(['id', 'owner_key', 'file_name'])
      .orderBy('owner_key')
      .orderBy('upload_date')
      .orderBy('id')
      .execute();
    const taken = new Set<string>();
    for (const row of rows) {
      const key = fileNameKey(row.file_name);
      const ownerAndKey = JSON.stringify([row.owner_key, key]);
      if (taken.has(ownerAndKey)) continue;
      taken.add(ownerAndKey);
      await db.updateTable('files').set({ name_key: key }).where('id', '=', row.id).execute();
    }
    await db.schema
      .createIndex('files_owner_name_key')
      .on('files')
      .columns(['owner_key', 'name_key'])
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_owner_name_key').execute();
    await db.schema.alterTable('files').dropColumn('name_key').execute();
  },
};
