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

  /**
   * The name keys of the files in a folder that start with `prefix` (a superset: LIKE may also fold ASCII case),
   * `excludeId` left out (a file being renamed).
   */
  async nameKeysStartingWith(folderId: string, prefix: string, excludeId?: string): Promise<Set<string>> {
    const pattern = `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    let query = db.selectFrom('files').select('name_key').where('folder_id', '=', folderId);
    if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
    const rows = await query.where(sql<boolean>`name_key like ${pattern} escape '\\'`).execute();
    return new Set(rows.flatMap((row) => (row.name_key === null ? [] : [row.name_key])));
  },

  async findById(id: string): Promise<FileRow | undefined> {
    return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** A person's files, in every folder of their personal space: newest first; `after` continues a previous page. */
  async listByOwner(ownerKey: string, limit: number, after?: PageCursor): Promise<FileRow[]> {
    let query = db.selectFrom('files').selectAll().where('owner_key', '=', ownerKey).where('workspace_id', 'is', null);
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
      .where('workspace_id', 'is', null)
      .executeTakeFirst();
    return { fileCount: Number(row?.count ?? 0), sizeInBytes: Number(row?.total ?? 0) };
  },

  /** Bytes of a workspace's files (its quota). */
  async usedByWorkspace(workspaceId: string): Promise<number> {
    const row = await db
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  },

  async update(
    id: string,
    values: Partial<Pick<FileRow, 'file_name' | 'name_key' | 'folder_id' | 'workspace_id' | 'owner_key'>>,
  ): Promise<void> {
    await db.updateTable('files').set(values).where('id', '=', id).execute();
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
