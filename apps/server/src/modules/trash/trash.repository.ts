import { sql } from 'kysely';
import type { Db } from '../../db';

/** A trashed file or folder (the top of what went to the trash together), as the trash lists it. */
export interface TrashRow {
  id: string;
  kind: 'file' | 'folder';
  name: string;
  size: number;
  content_type: string | null;
  file_count: number;
  workspace_id: string | null;
  workspace_name: string | null;
  owner_key: string | null;
  trashed_at: string;
  trashed_by: string | null;
  trashed_by_name: string | null;
}

/** Whose trash: a person's personal space and the workspaces whose trash they may see. */
export interface TrashScope {
  ownerKey?: string;
  workspaceIds?: string[];
}

/** Plain queries on the trashed rows of `files` and `folders` (migration 0016); no rules here. */
export const createTrashRepository = (db: Db) => {
  const byName = sql<string | null>`coalesce(u.name, u.nickname, u.owner_key)`;

  /** The top trashed files of `scope` (a file that went with a folder is the folder's). */
  const files = (scope: TrashScope) =>
    db
      .selectFrom('files')
      .leftJoin('users as u', 'u.id', 'files.trashed_by')
      .leftJoin('workspaces as w', 'w.id', 'files.workspace_id')
      .select([
        'files.id',
        sql<'file'>`'file'`.as('kind'),
        'files.file_name as name',
        'files.size',
        'files.content_type',
        sql<number>`1`.as('file_count'),
        'files.workspace_id',
        'w.name as workspace_name',
        'files.owner_key',
        sql<string>`files.trashed_at`.as('trashed_at'),
        'files.trashed_by',
        byName.as('trashed_by_name'),
      ])
      .where('files.trashed_at', 'is not', null)
      .where('files.trash_root_id', 'is', null)
      .where((eb) =>
        eb.or([
          ...(scope.ownerKey === undefined
            ? []
            : [eb.and([eb('files.workspace_id', 'is', null), eb('files.owner_key', '=', scope.ownerKey)])]),
          ...(scope.workspaceIds?.length ? [eb('files.workspace_id', 'in', scope.workspaceIds)] : []),
          sql<boolean>`false`,
        ]),
      );

  const folders = (scope: TrashScope) =>
    db
      .selectFrom('folders')
      .leftJoin('users as u', 'u.id', 'folders.trashed_by')
      .leftJoin('workspaces as w', 'w.id', 'folders.workspace_id')
      .select([
        'folders.id',
        sql<'folder'>`'folder'`.as('kind'),
        'folders.name',
        sql<number>`coalesce((select sum(f.size) from files f where f.trash_root_id = folders.id), 0)`.as('size'),
        sql<string | null>`null`.as('content_type'),
        sql<number>`(select count(*) from files f where f.trash_root_id = folders.id)`.as('file_count'),
        'folders.workspace_id',
        'w.name as workspace_name',
        'folders.owner_key',
        sql<string>`folders.trashed_at`.as('trashed_at'),
        'folders.trashed_by',
        byName.as('trashed_by_name'),
      ])
      .where('folders.trashed_at', 'is not', null)
      .where('folders.trash_root_id', 'is', null)
      .where((eb) =>
        eb.or([
          ...(scope.ownerKey === undefined
            ? []
            : [eb.and([eb('folders.workspace_id', 'is', null), eb('folders.owner_key', '=', scope.ownerKey)])]),
          ...(scope.workspaceIds?.length ? [eb('folders.workspace_id', 'in', scope.workspaceIds)] : []),
          sql<boolean>`false`,
        ]),
      );

  const numbers = (row: TrashRow): TrashRow => ({ ...row, size: Number(row.size), file_count: Number(row.file_count) });

  return {
    /** The workspaces where `userId` is an editor or owner (whose trash they see). */
    async deletableWorkspaces(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('workspace_members')
        .select('workspace_id')
        .where('user_id', '=', userId)
        .where('role', 'in', ['owner', 'editor'])
        .execute();
      return rows.map((row) => row.workspace_id);
    },

    /** The trash of `scope`, newest first, at most `limit` items. */
    async list(scope: TrashScope, limit: number): Promise<TrashRow[]> {
      const [fileRows, folderRows] = await Promise.all([
        files(scope).orderBy('files.trashed_at', 'desc').orderBy('files.id', 'desc').limit(limit).execute(),
        folders(scope).orderBy('folders.trashed_at', 'desc').orderBy('folders.id', 'desc').limit(limit).execute(),
      ]);
      return [...fileRows, ...folderRows]
        .map(numbers)
        .sort((a, b) =>
          a.trashed_at === b.trashed_at ? b.id.localeCompare(a.id) : b.trashed_at.localeCompare(a.trashed_at),
        )
        .slice(0, limit);
    },

    /** Top trashed items (ids and kinds) of `scope`, or of every space trashed before `before`, at most `limit`. */
    async ids(
      filter: { scope: TrashScope } | { before: string },
      limit: number,
    ): Promise<{ id: string; kind: 'file' | 'folder' }[]> {
      const fileQuery =
        'scope' in filter
          ? files(filter.scope)
          : files({})
              .clearWhere()
              .where('files.trashed_at', '<', filter.before)
              .where('files.trash_root_id', 'is', null);
      const folderQuery =
        'scope' in filter
          ? folders(filter.scope)
          : folders({})
              .clearWhere()
              .where('folders.trashed_at', '<', filter.before)
              .where('folders.trash_root_id', 'is', null);
      const [fileRows, folderRows] = await Promise.all([
        fileQuery.limit(limit).execute(),
        folderQuery.limit(limit).execute(),
      ]);
      return [...folderRows, ...fileRows].slice(0, limit).map((row) => ({ id: row.id, kind: row.kind }));
    },
  };
};

export type TrashRepository = ReturnType<typeof createTrashRepository>;
