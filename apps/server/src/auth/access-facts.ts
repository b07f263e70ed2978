import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
import { FOLDER_WALK_BOUND, folderAncestorsCte } from '../db/folder-walk';
import type { UserActor } from './actor';
import { strongerRole, type ResourceRole } from './policies/roles';

// What a signed-in user is to a file or folder beyond its policy's own reading (membership, shares): the facts the
// file and folder policies decide on, and their set form for queries over many rows. Below the modules, beside the
// policies: every module that authorizes items (files, folders, trash, search, file details) reads them here.

/** Where a file or folder is: what the resolver needs to find the acting user's roles on it. */
export interface Placement {
  /** Null: a personal space. */
  workspaceId: string | null;
  /** The folder itself (for a folder) or the folder the file is in (null: an unplaced file). */
  folderId: string | null;
  /** For a file: its id, so shares on the file itself count too. */
  fileId?: string;
}

/** The part of a policy subject the resolver fills in (see `auth/policies/file.ts` and `folder.ts`). */
export interface AccessFacts {
  memberRole: ResourceRole | null;
  shareRole: ResourceRole | null;
}

/**
 * A `shares` row (alias `alias`) reaches `userId`: granted to them, or to a workspace they are a member of. The one
 * statement of that rule in SQL, used by the per-item resolver below and by the set form (`readableScope`).
 */
export const shareReaches = (userId: string, alias: string): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(`${alias}.grantee_user_id`)} = ${userId}
    or ${sql.ref(`${alias}.grantee_workspace_id`)} in (select workspace_id from workspace_members where user_id = ${userId}))`;

/**
 * The set form of the facts below, for queries over many rows at once (search, bulk actions): SQL conditions true
 * for the files and folders a signed-in user can read through their own personal space, their workspace
 * memberships or a share (on the file, or on a folder at or above the item). `ctes` defines `readable_shared_tree`
 * (the shared folders and everything below them) and must open the query's `with recursive` list. Admins get no
 * more here than anyone (the file policy gives them no reach into other people's personal spaces either).
 */
export function readableScope(actor: Pick<UserActor, 'id' | 'ownerKey'>) {
  const memberOf = sql`(select workspace_id from workspace_members where user_id = ${actor.id})`;
  const own = (alias: string) =>
    sql`(${sql.ref(`${alias}.workspace_id`)} is null and ${sql.ref(`${alias}.owner_key`)} = ${actor.ownerKey})`;
  // Bounded (a depth column, `FOLDER_WALK_BOUND`): a cycle stored in `folders` still ends the walk.
  const ctes = sql`readable_shared_tree(id, depth) as (
      select s.folder_id, 0 from shares s where s.folder_id is not null and ${shareReaches(actor.id, 's')}
      union
      select f.id, t.depth + 1 from folders f join readable_shared_tree t on f.parent_id = t.id
      where t.depth < ${FOLDER_WALK_BOUND}
    )`;
  return {
    ctes,
    /** Condition on a `files` row. */
    file: (alias: string) => sql<boolean>`(${own(alias)}
      or ${sql.ref(`${alias}.workspace_id`)} in ${memberOf}
      or ${sql.ref(`${alias}.id`)} in (select s.file_id from shares s where s.file_id is not null and ${shareReaches(actor.id, 's')})
      or ${sql.ref(`${alias}.folder_id`)} in (select id from readable_shared_tree))`,
    /** Condition on a `folders` row. */
    folder: (alias: string) => sql<boolean>`(${own(alias)}
      or ${sql.ref(`${alias}.workspace_id`)} in ${memberOf}
      or ${sql.ref(`${alias}.id`)} in (select id from readable_shared_tree))`,
    /**
     * Condition on a search document (`search_documents`, migration 0017: `kind`, `item_id`, `workspace_id`,
     * `owner_key`, `place_id` — the file's folder or the folder's parent), the same rule as `file` and `folder`.
     */
    document: (alias: string) => {
      const column = (name: string) => sql.ref(`${alias}.${name}`);
      return sql<boolean>`(${own(alias)}
        or ${column('workspace_id')} in ${memberOf}
        or (${column('kind')} = 'file' and (
          ${column('item_id')} in (select s.file_id from shares s where s.file_id is not null and ${shareReaches(actor.id, 's')})
          or ${column('place_id')} in (select id from readable_shared_tree)))
        or (${column('kind')} = 'folder' and ${column('item_id')} in (select id from readable_shared_tree)))`;
    },
    /**
     * What shares reach the user with, as rows `(kind, id)`: every folder of a shared tree (`folder`: it and what
     * is in it) and every file shared alone (`file`). Where a query over shared items may look; it narrows, the
     * conditions above decide. A whole query: it opens with the `with recursive` list itself.
     */
    sharedTargets: sql<{ kind: 'folder' | 'file'; id: string }>`with recursive ${ctes}
      select distinct 'folder' as kind, id from readable_shared_tree
      union all
      select 'file' as kind, s.file_id as id from shares s where s.file_id is not null and ${shareReaches(actor.id, 's')}`,
    /**
     * The row is the user's own or in one of their workspaces (not reached only through a share). Never null, so
     * `not` of it is safe: a personal row's null `workspace_id` is tested apart (`null in (…)` is null, not false).
     */
    inOwnSpaces: (alias: string) =>
      sql<boolean>`(${own(alias)} or (${sql.ref(`${alias}.workspace_id`)} is not null
        and ${sql.ref(`${alias}.workspace_id`)} in ${memberOf}))`,
  };
}

/**
 * Finds what a signed-in user is to a file or folder beyond owning its personal space: their membership role in its
 * workspace, and the strongest share that reaches them — on the file, on its folder or on any folder above it,
 * granted to them or to a workspace they are a member of. One query each; the decisions stay in the policies.
 */
export function createAccessResolver(db: Db) {
  const resolver = {
    async memberRole(workspaceId: string, userId: string): Promise<ResourceRole | null> {
      const row = await db
        .selectFrom('workspace_members')
        .select('role')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role ?? null;
    },

    /** The strongest share reaching `userId` on the file and the folders from `folderId` up to its space's root. */
    async shareRole(userId: string, target: { folderId: string | null; fileId?: string | undefined }) {
      const onFile = target.fileId === undefined ? sql`false` : sql`s.file_id = ${target.fileId}`;
      const onFolders =
        target.folderId === null
          ? sql`false`
          : sql`s.folder_id in (with recursive ${folderAncestorsCte([target.folderId])} select id from folder_up)`;
      const { rows } = await sql<{ role: 'viewer' | 'editor' }>`
        select s.role from shares s
        where (${onFile} or ${onFolders}) and ${shareReaches(userId, 's')}
      `.execute(db);
      return rows.reduce<ResourceRole | null>((best, row) => strongerRole(best, row.role), null);
    },

    /** Which of `folderIds` carry a share reaching `userId` (breadcrumbs of a shared folder start at the highest). */
    async sharedFolderIds(userId: string, folderIds: string[]): Promise<Set<string>> {
      if (folderIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('shares')
        .select('folder_id')
        .where('folder_id', 'in', folderIds)
        .where((eb) =>
          eb.or([
            eb('grantee_user_id', '=', userId),
            eb(
              'grantee_workspace_id',
              'in',
              eb.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', userId),
            ),
          ]),
        )
        .execute();
      return new Set(rows.flatMap((row) => (row.folder_id === null ? [] : [row.folder_id])));
    },

    /**
     * The facts for `actor` on a file or folder at `placement`. `ownsPersonal` short-cuts the share lookup when the
     * actor already holds the personal space (nothing is stronger than owner).
     */
    async factsFor(actor: UserActor, placement: Placement, ownsPersonal: boolean): Promise<AccessFacts> {
      const memberRole =
        placement.workspaceId === null ? null : await resolver.memberRole(placement.workspaceId, actor.id);
      if (ownsPersonal || memberRole === 'owner') return { memberRole, shareRole: null };
      const shareRole = await resolver.shareRole(actor.id, { folderId: placement.folderId, fileId: placement.fileId });
      return { memberRole, shareRole };
    },
  };
  return resolver;
}

export type AccessResolver = ReturnType<typeof createAccessResolver>;
