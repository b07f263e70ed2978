import type { FileKind } from '@atrium/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db';
import {
  folderAncestors,
  folderHeight,
  folderDescendants,
  MAX_FOLDER_DEPTH,
  type WalkedFolder,
} from '../../db/folder-walk';
import { likeLiteral } from '../../db/like-literal';
import type { FilesTable, FoldersTable } from '../../db/schema';
import { fileKindCondition } from '../../lib/file-kind-sql';

export type FolderRow = Selectable<FoldersTable>;
/** The columns a folder listing shows of a file (its record, its checksum, the sort and cursor values). */
const LISTED_FILE_COLUMNS = [
  'id',
  'file_name',
  'name_key',
  'size',
  'content_type',
  'sha256',
  'upload_date',
  'modified_at',
] as const;
export type ListedFileRow = Pick<Selectable<FilesTable>, (typeof LISTED_FILE_COLUMNS)[number]>;

/** Where a keyset page continues: the sort value and id of the last entry of the previous page. */
export interface KeysetAfter {
  value: string | number;
  id: string;
}

/** Where a folder stands in its tree: its depth below its space's root, and whether `id` is it or above it. */
export interface FolderStanding {
  /** Levels below the root (0: the root); null when its chain does not reach a root within the bound (damage). */
  depth: number | null;
  /** Whether the folder asked about is the one walked from or one of the folders above it. */
  within: boolean;
}

/** A folder whose chain of parents does not reach a root within the depth cap (`strandedFolders`). */
export type StrandedFolder = Pick<FolderRow, 'id' | 'parent_id' | 'name' | 'name_key' | 'workspace_id' | 'owner_key'>;

/** Plain queries on folders (and the files listed in them); no product rules here. */
export const createFoldersRepository = (db: Db) => ({
  /** Folder `id` unless it is in the trash (itself or with a folder above it). */
  async findFolder(id: string): Promise<FolderRow | undefined> {
    return db.selectFrom('folders').selectAll().where('id', '=', id).where('trashed_at', 'is', null).executeTakeFirst();
  },

  /** Folder `id` and the folders above it, itself first (one bounded recursive query). */
  ancestors: (id: string): Promise<WalkedFolder[]> => folderAncestors(db, id),

  /**
   * Where folder `id` stands: its depth below its space's root, and whether `aboveId` is it or a folder above it.
   * One bounded recursive query (`trx`: inside a move's transaction).
   */
  async standing(id: string, aboveId: string | null, trx: Db = db): Promise<FolderStanding> {
    const chain = await folderAncestors(trx, id);
    const top = chain.at(-1);
    return {
      depth: top && top.parent_id === null ? top.depth : null,
      within: aboveId !== null && chain.some((row) => row.id === aboveId),
    };
  },

  /**
   * How many levels the subtree of folder `id` has below it (0: no subfolders); `trashed`: count folders in the
   * trash too. One bounded recursive query.
   */
  height: (id: string, trashed = false, trx: Db = db): Promise<number> => folderHeight(trx, id, trashed),

  /**
   * Takes the lock of the space folder `folder` is in for the rest of transaction `trx` (a no-op update of its
   * root row: a row lock on PostgreSQL, the write lock on SQLite), so the moves, creations and restores of one
   * space run one after another and a depth or cycle check still holds when its write lands. The column is one
   * no trigger watches.
   */
  async lockSpace(trx: Db, folder: Pick<FolderRow, 'workspace_id' | 'owner_key'>): Promise<void> {
    let query = trx
      .updateTable('folders')
      .set({ trash_root_id: sql`trash_root_id` })
      .where('parent_id', 'is', null);
    query =
      folder.workspace_id === null
        ? query.where('workspace_id', 'is', null).where('owner_key', '=', folder.owner_key)
        : query.where('workspace_id', '=', folder.workspace_id);
    await query.execute();
  },

  /** The root folder of the space `folder` is in. */
  async rootOf(folder: Pick<FolderRow, 'workspace_id' | 'owner_key'>): Promise<FolderRow | undefined> {
    if (folder.workspace_id === null) {
      return db
        .selectFrom('folders')
        .selectAll()
        .where('owner_key', '=', folder.owner_key)
        .where('workspace_id', 'is', null)
        .where('parent_id', 'is', null)
        .executeTakeFirst();
    }
    return db
      .selectFrom('folders')
      .selectAll()
      .where('workspace_id', '=', folder.workspace_id)
      .where('parent_id', 'is', null)
      .executeTakeFirst();
  },

  /** The folders that went to the trash with folder `id`. */
  async foldersTrashedWith(id: string): Promise<string[]> {
    const rows = await db.selectFrom('folders').select('id').where('trash_root_id', '=', id).execute();
    return rows.map((row) => row.id);
  },

  /**
   * Before folders `ids` (trashed with `top`) are purged: what was trashed on its own from inside them moves to
   * `rootId`, its space's root, so it stays in the trash (and a restore finds a place for it).
   */
  async moveTrashedApart(ids: string[], top: string, rootId: string): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await db
        .updateTable('folders')
        .set({ parent_id: rootId })
        .where('parent_id', 'in', chunk)
        .where('trashed_at', 'is not', null)
        .where('trash_root_id', 'is', null)
        .where('id', '!=', top)
        .execute();
      await db
        .updateTable('files')
        .set({ folder_id: rootId })
        .where('folder_id', 'in', chunk)
        .where('trashed_at', 'is not', null)
        .where('trash_root_id', 'is', null)
        .execute();
    }
  },

  /** Folder `id`, in the trash or not (the trash's own operations). */
  async findAnyFolder(id: string): Promise<FolderRow | undefined> {
    return db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * Moves folder `id` to the trash with `below` (its subfolders not in the trash yet): the folder frees its name
   * in its parent (`/trash/<id>`, a key no name can have) and keeps its parent; what goes with it is marked with its
   * id (`trash_root_id`). Answers how many files went with it.
   */
  async trashFolder(id: string, below: string[], by: string | null, now: string): Promise<number> {
    return db.transaction().execute(async (trx) => {
      await trx
        .updateTable('folders')
        .set({ trashed_at: now, trashed_by: by, trash_root_id: null, name_key: `/trash/${id}` })
        .where('id', '=', id)
        .execute();
      let files = 0;
      const all = [id, ...below];
      for (let i = 0; i < all.length; i += 500) {
        const chunk = all.slice(i, i + 500);
        await trx
          .updateTable('folders')
          .set({ trashed_at: now, trashed_by: by, trash_root_id: id })
          .where('id', 'in', chunk)
          .where('id', '!=', id)
          .where('trashed_at', 'is', null)
          .execute();
        const moved = await trx
          .updateTable('files')
          .set({ trashed_at: now, trashed_by: by, trash_root_id: id })
          .where('folder_id', 'in', chunk)
          .where('trashed_at', 'is', null)
          .executeTakeFirst();
        files += Number(moved.numUpdatedRows);
      }
      return files;
    });
  },

  /**
   * Takes trashed folder `id` and what went with it out of the trash, into `parentId` under `name` (a unique
   * violation: the name is taken there).
   */
  async untrashFolder(
    id: string,
    parentId: string,
    name: string,
    nameKey: string,
    now: string,
    check?: (trx: Db) => Promise<void>,
  ): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await check?.(trx);
      await trx
        .updateTable('folders')
        .set({ parent_id: parentId, name, name_key: nameKey, trashed_at: null, trashed_by: null, updated_at: now })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('folders')
        .set({ trashed_at: null, trashed_by: null, trash_root_id: null })
        .where('trash_root_id', '=', id)
        .execute();
      await trx
        .updateTable('files')
        .set({ trashed_at: null, trashed_by: null, trash_root_id: null })
        .where('trash_root_id', '=', id)
        .execute();
    });
  },

  async findPersonalRoot(ownerKey: string): Promise<FolderRow | undefined> {
    return db
      .selectFrom('folders')
      .selectAll()
      .where('owner_key', '=', ownerKey)
      .where('parent_id', 'is', null)
      .executeTakeFirst();
  },

  async insertFolder(row: FolderRow, trx: Db = db): Promise<void> {
    await trx.insertInto('folders').values(row).execute();
  },

  /** Name keys of the folders in `parentId` starting with `prefix` (a superset: LIKE may fold ASCII case). */
  async childNameKeysStartingWith(parentId: string, prefix: string, excludeId?: string): Promise<Set<string>> {
    let query = db.selectFrom('folders').select('name_key').where('parent_id', '=', parentId);
    if (excludeId) query = query.where('id', '!=', excludeId);
    const rows = await query.where(sql<boolean>`name_key like ${`${likeLiteral(prefix)}%`} escape '\\'`).execute();
    return new Set(rows.map((row) => row.name_key));
  },

  async updateFolder(
    id: string,
    values: Partial<Pick<FolderRow, 'name' | 'name_key' | 'parent_id' | 'updated_at'>>,
    trx: Db = db,
  ): Promise<void> {
    await trx.updateTable('folders').set(values).where('id', '=', id).execute();
  },

  /** The ids of the folders below folder `id` (not in the trash), by level: one bounded recursive query. */
  async folderIdsBelow(id: string): Promise<string[]> {
    return (await folderDescendants(db, id)).map((row) => row.id);
  },

  /**
   * Folders whose chain of parents does not reach a root within the depth cap: stored in a cycle, below one, or
   * deeper than `MAX_FOLDER_DEPTH`. A walk down from every root; on a healthy table it answers nothing.
   * `parent_reached`: the parent is in the tree at the cap (this folder is one level too deep).
   */
  async strandedFolders(): Promise<(StrandedFolder & { parent_reached: boolean })[]> {
    const { rows } = await sql<
      StrandedFolder & {
        parent_reached: boolean | number;
      }
    >`
        with recursive reached(id, depth) as (
          select id, 0 from folders where parent_id is null
          union
          select f.id, r.depth + 1 from folders f join reached r on f.parent_id = r.id
          where r.depth < ${MAX_FOLDER_DEPTH}
        )
        select f.id, f.parent_id, f.name, f.name_key, f.workspace_id, f.owner_key,
          case when f.parent_id in (select id from reached) then 1 else 0 end as parent_reached
        from folders f
        where f.id not in (select id from reached)
      `.execute(db);
    return rows.map((row) => ({ ...row, parent_reached: Number(row.parent_reached) === 1 }));
  },

  /**
   * Deletes folders `ids` (a subtree, its top first) and their files' rows (with their versions); answers the
   * files' ids and blob keys, and the blob keys of their versions.
   */
  async deleteFolders(ids: string[]): Promise<{ id: string; blob_key: string; version_keys: string[] }[]> {
    return db.transaction().execute(async (trx) => {
      const files: { id: string; blob_key: string; version_keys: string[] }[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const rows = await trx.selectFrom('files').select(['id', 'blob_key']).where('folder_id', 'in', chunk).execute();
        const versions = await trx
          .selectFrom('file_versions')
          .innerJoin('files', 'files.id', 'file_versions.file_id')
          .select(['file_versions.file_id', 'file_versions.blob_key'])
          .where('files.folder_id', 'in', chunk)
          .execute();
        files.push(
          ...rows.map((row) => ({
            ...row,
            version_keys: versions.filter((v) => v.file_id === row.id).map((v) => v.blob_key),
          })),
        );
        await trx.deleteFrom('files').where('folder_id', 'in', chunk).execute();
      }
      // Deepest last in `ids`: delete children first so no row ever points at a deleted parent.
      for (let i = ids.length; i > 0; i -= 500) {
        await trx
          .deleteFrom('folders')
          .where('id', 'in', ids.slice(Math.max(0, i - 500), i))
          .execute();
      }
      return files;
    });
  },

  /**
   * One page of the folders in `parentId`, ordered by `sortExpr` then id; `after` continues a page; `nameKeys`
   * keeps only the folders with one of these name keys.
   */
  async listChildFolders(
    parentId: string,
    sort: 'name_key' | 'created_at',
    desc: boolean,
    limit: number,
    after?: KeysetAfter,
    nameKeys?: string[],
  ): Promise<FolderRow[]> {
    const op = desc ? '<' : '>';
    let query = db.selectFrom('folders').selectAll().where('parent_id', '=', parentId).where('trashed_at', 'is', null);
    if (nameKeys) query = query.where('name_key', 'in', nameKeys);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb(sort, op, String(after.value)),
          eb.and([eb(sort, '=', String(after.value)), eb('id', op, after.id)]),
        ]),
      );
    }
    const direction = desc ? 'desc' : 'asc';
    return query.orderBy(sort, direction).orderBy('id', direction).limit(limit).execute();
  },

  /**
   * One page of the files in `folderId`, ordered by `sort` then id; `after` continues a page. `filter.kind` keeps
   * one kind of file, `filter.nameKeys` the files with one of these name keys.
   */
  async listFolderFiles(
    folderId: string,
    sort: 'name' | 'upload_date' | 'size' | 'content_type',
    desc: boolean,
    limit: number,
    after?: KeysetAfter,
    filter: { kind?: FileKind | undefined; nameKeys?: string[] | undefined } = {},
  ): Promise<ListedFileRow[]> {
    const op = desc ? '<' : '>';
    // Names sort by their key (case-insensitive); files stored with equal names before 0009 have none.
    const key = sort === 'name' ? sql<string>`coalesce(name_key, file_name)` : sql.ref<string | number>(sort);
    // Only the listed columns: a page of 1,000 rows of every column took a third longer to read (SQLite).
    let query = db
      .selectFrom('files')
      .select(LISTED_FILE_COLUMNS)
      .where('folder_id', '=', folderId)
      .where('trashed_at', 'is', null);
    if (filter.kind) query = query.where(fileKindCondition(filter.kind, sql.ref('content_type')));
    if (filter.nameKeys) query = query.where('name_key', 'in', filter.nameKeys);
    if (after) {
      // `key >= value and (key > value or id > after)`: the first bound lets the database seek into the
      // (folder_id, name order, id) index of migration 0043 (a range read) instead of walking the folder from its start.
      query = query
        .where(key, desc ? '<=' : '>=', after.value)
        .where((eb) => eb.or([eb(key, op, after.value), eb('id', op, after.id)]));
    }
    const direction = desc ? 'desc' : 'asc';
    return query.orderBy(key, direction).orderBy('id', direction).limit(limit).execute();
  },
});
