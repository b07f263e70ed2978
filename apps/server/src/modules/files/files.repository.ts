import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db';
import type { FilesTable } from '../../db/schema';

export type FileRow = Selectable<FilesTable>;

export interface PageCursor {
  uploadDate: string;
  id: string;
}

/** Plain queries on the files table; no product rules here. */
/** A workspace's bytes: its files (trashed ones included) and their older versions — what its quota counts. */
export async function workspaceUsedBytes(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  const versions = await db
    .selectFrom('file_versions')
    .innerJoin('files', 'files.id', 'file_versions.file_id')
    .select((eb) => eb.fn.sum<number | string | null>('file_versions.size').as('total'))
    .where('files.workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.total ?? 0) + Number(versions?.total ?? 0);
}

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

  /** File `id` unless it is in the trash (a trashed file is gone for every reader, links and shares included). */
  async findById(id: string): Promise<FileRow | undefined> {
    return db.selectFrom('files').selectAll().where('id', '=', id).where('trashed_at', 'is', null).executeTakeFirst();
  },

  /**
   * The files among `ids` not in the trash (a WebDAV listing's checksums, read a batch at a time). The trash is left
   * out here, not in SQL: with `trashed_at is null` in the query SQLite walks that index (every live file) instead of
   * the primary key.
   */
  async findByIds(ids: string[]): Promise<FileRow[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
    return rows.filter((row) => row.trashed_at === null);
  },

  /** File `id`, in the trash or not (the trash's own operations). */
  async findAnyById(id: string): Promise<FileRow | undefined> {
    return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Moves file `id` to the trash: it keeps its folder (where a restore puts it back) and frees its name there. */
  async trash(id: string, by: string | null, now: string): Promise<boolean> {
    const result = await db
      .updateTable('files')
      .set({ trashed_at: now, trashed_by: by, trash_root_id: null, name_key: null })
      .where('id', '=', id)
      .where('trashed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Takes trashed file `id` out of the trash into `folderId` under `name` (unique violation: the name is taken). */
  async untrash(id: string, folderId: string, name: string, nameKey: string): Promise<void> {
    await db
      .updateTable('files')
      .set({ folder_id: folderId, file_name: name, name_key: nameKey, trashed_at: null, trashed_by: null })
      .where('id', '=', id)
      .execute();
  },

  /** A person's files, in every folder of their personal space: newest first; `after` continues a previous page. */
  async listByOwner(ownerKey: string, limit: number, after?: PageCursor): Promise<FileRow[]> {
    let query = db
      .selectFrom('files')
      .selectAll()
      .where('owner_key', '=', ownerKey)
      .where('workspace_id', 'is', null)
      .where('trashed_at', 'is', null);
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

  /**
   * A person's personal space: the count and bytes of the files not in the trash, the bytes in the trash, and the
   * bytes of older versions (of files in or out of the trash). The quota counts all three.
   */
  async statsByOwner(
    ownerKey: string,
  ): Promise<{ fileCount: number; sizeInBytes: number; trashBytes: number; versionBytes: number }> {
    const row = await db
      .selectFrom('files')
      .select((eb) => [
        eb.fn.sum<number | string | null>(sql`case when trashed_at is null then 1 else 0 end`).as('count'),
        eb.fn.sum<number | string | null>(sql`case when trashed_at is null then size else 0 end`).as('live'),
        eb.fn.sum<number | string | null>(sql`case when trashed_at is null then 0 else size end`).as('trash'),
      ])
      .where('owner_key', '=', ownerKey)
      .where('workspace_id', 'is', null)
      .executeTakeFirst();
    const versions = await db
      .selectFrom('file_versions')
      .innerJoin('files', 'files.id', 'file_versions.file_id')
      .select((eb) => eb.fn.sum<number | string | null>('file_versions.size').as('total'))
      .where('files.owner_key', '=', ownerKey)
      .where('files.workspace_id', 'is', null)
      .executeTakeFirst();
    return {
      fileCount: Number(row?.count ?? 0),
      sizeInBytes: Number(row?.live ?? 0),
      trashBytes: Number(row?.trash ?? 0),
      versionBytes: Number(versions?.total ?? 0),
    };
  },

  /** Bytes of a workspace's files, trashed ones and older versions included (its quota). */
  usedByWorkspace: (workspaceId: string): Promise<number> => workspaceUsedBytes(db, workspaceId),

  async update(
    id: string,
    values: Partial<Pick<FileRow, 'file_name' | 'name_key' | 'folder_id' | 'workspace_id' | 'owner_key'>>,
  ): Promise<void> {
    await db.updateTable('files').set(values).where('id', '=', id).execute();
  },

  /** The file (not in the trash) named `nameKey` in folder `folderId`. */
  async findByName(folderId: string, nameKey: string): Promise<FileRow | undefined> {
    return db
      .selectFrom('files')
      .selectAll()
      .where('folder_id', '=', folderId)
      .where('name_key', '=', nameKey)
      .where('trashed_at', 'is', null)
      .executeTakeFirst();
  },

  /**
   * Makes `next` the content of file `current.id` and keeps the content it had as version `versionId` (one
   * transaction); `fromVersionId`: the version `next` comes from, which it stops being. False when the file's content
   * changed meanwhile (another replace won) or the file is gone.
   */
  async replaceContent(
    current: FileRow,
    next: Pick<FileRow, 'blob_key' | 'size' | 'sha256' | 'content_type' | 'upload_date' | 'uploaded_by'> & {
      modified_at: string | null;
    },
    versionId: string,
    fromVersionId?: string,
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('files')
        .set(next)
        .where('id', '=', current.id)
        .where('blob_key', '=', current.blob_key)
        .where('trashed_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx
        .insertInto('file_versions')
        .values({
          id: versionId,
          file_id: current.id,
          blob_key: current.blob_key,
          size: current.size,
          content_type: current.content_type,
          sha256: current.sha256,
          uploaded_by: current.uploaded_by,
          created_at: current.upload_date,
        })
        .execute();
      if (fromVersionId !== undefined) {
        await trx.deleteFrom('file_versions').where('id', '=', fromVersionId).execute();
      }
      return true;
    });
  },

  /** File `fileId`'s older versions, newest first, with the uploader's display name. */
  async listVersions(fileId: string) {
    return db
      .selectFrom('file_versions as v')
      .leftJoin('users as u', 'u.id', 'v.uploaded_by')
      .selectAll('v')
      .select(sql<string | null>`coalesce(u.name, u.nickname, u.owner_key)`.as('uploader_name'))
      .where('v.file_id', '=', fileId)
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id', 'desc')
      .execute();
  },

  async findVersion(fileId: string, versionId: string) {
    return db
      .selectFrom('file_versions')
      .selectAll()
      .where('file_id', '=', fileId)
      .where('id', '=', versionId)
      .executeTakeFirst();
  },

  /** Deletes file `fileId`'s versions beyond the newest `keep`; answers their blob keys. */
  async pruneVersions(fileId: string, keep: number): Promise<string[]> {
    const rows = await db
      .selectFrom('file_versions')
      .select(['id', 'blob_key'])
      .where('file_id', '=', fileId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const extra = rows.slice(keep);
    if (extra.length === 0) return [];
    await db
      .deleteFrom('file_versions')
      .where(
        'id',
        'in',
        extra.map((row) => row.id),
      )
      .execute();
    return extra.map((row) => row.blob_key);
  },

  /** The blob keys of file `id`'s older versions. */
  async versionBlobKeys(id: string): Promise<string[]> {
    const rows = await db.selectFrom('file_versions').select('blob_key').where('file_id', '=', id).execute();
    return rows.map((row) => row.blob_key);
  },

  /** The owner key of user `id` (who uploaded, for the audit log). */
  async ownerKeyOfUser(id: string): Promise<string | undefined> {
    const row = await db.selectFrom('users').select('owner_key').where('id', '=', id).executeTakeFirst();
    return row?.owner_key;
  },

  /** The name of folder `id` (the audit log's move entries). */
  async folderName(id: string): Promise<string | undefined> {
    const row = await db.selectFrom('folders').select('name').where('id', '=', id).executeTakeFirst();
    return row?.name;
  },

  async deleteById(id: string): Promise<boolean> {
    const result = await db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Whether a file row (in the trash or not) or a version names `blobKey`. */
  async blobKeyExists(blobKey: string): Promise<boolean> {
    const row = await db.selectFrom('files').select('id').where('blob_key', '=', blobKey).executeTakeFirst();
    if (row) return true;
    const version = await db
      .selectFrom('file_versions')
      .select('id')
      .where('blob_key', '=', blobKey)
      .executeTakeFirst();
    return version !== undefined;
  },
});

export type FilesRepository = ReturnType<typeof createFilesRepository>;
