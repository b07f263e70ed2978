import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db';
import type { FilesTable } from '../../db/schema';

export type FileRow = Selectable<FilesTable>;

export interface PageCursor {
  uploadDate: string;
  id: string;
}

/** Plain queries on the files table; no product rules here. */
export const createFilesRepository = (db: Db) => ({
  async insert(row: Insertable<FilesTable>): Promise<void> {
    await db.insertInto('files').values(row).execute();
  },

  /** The name keys of an owner's files that start with `prefix` (a superset: LIKE may also fold ASCII case). */
  async nameKeysStartingWith(ownerKey: string, prefix: string): Promise<Set<string>> {
    const pattern = `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const rows = await db
      .selectFrom('files')
      .select('name_key')
      .where('owner_key', '=', ownerKey)
      .where(sql<boolean>`name_key like ${pattern} escape '\\'`)
      .execute();
    return new Set(rows.flatMap((row) => (row.name_key === null ? [] : [row.name_key])));
  },

  async findById(id: string): Promise<FileRow | undefined> {
    return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Newest first; `after` continues a previous page. */
  async listByOwner(ownerKey: string, limit: number, after?: PageCursor): Promise<FileRow[]> {
    let query = db.selectFrom('files').selectAll().where('owner_key', '=', ownerKey);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('upload_date', '<', after.uploadDate),
          eb.and([eb('upload_date', '=', after.uploadDate), eb('id', '<', after.id)]),
        ]),
      );
    }
    return query.orderBy('upload_date', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  async statsByOwner(ownerKey: string): Promise<{ fileCount: number; sizeInBytes: number }> {
    const row = await db
      .selectFrom('files')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string | null>('size').as('total'),
      ])
      .where('owner_key', '=', ownerKey)
      .executeTakeFirst();
    return { fileCount: Number(row?.count ?? 0), sizeInBytes: Number(row?.total ?? 0) };
  },

  async deleteById(id: string): Promise<boolean> {
    const result = await db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async blobKeyExists(blobKey: string): Promise<boolean> {
    const row = await db.selectFrom('files').select('id').where('blob_key', '=', blobKey).executeTakeFirst();
    return row !== undefined;
  },
});

export type FilesRepository = ReturnType<typeof createFilesRepository>;
