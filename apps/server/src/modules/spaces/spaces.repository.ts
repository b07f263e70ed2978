import type { FileKind } from '@atrium/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db';
import { fileKindCondition } from '../../lib/file-kind-sql';
import { workspaceUsedBytes } from '../files/files.repository';
import type { FilesTable, FoldersTable, MemberRole, UsersTable, WorkspacesTable } from '../../db/schema';
import { FOLDER_WALK_BOUND, MAX_FOLDER_DEPTH } from './folder-depth';

export type FolderRow = Selectable<FoldersTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type DirectoryRow = Pick<UsersTable, 'owner_key' | 'name' | 'nickname' | 'email' | 'picture'>;
export type MemberRow = DirectoryRow & { user_id: string; role: MemberRole; added_at: string };
export type ListedFileRow = Selectable<FilesTable>;

/** A workspace with the asking user's role in it (null: not a member) and its member count. */
export type WorkspaceView = WorkspaceRow & { member_role: MemberRole | null; member_count: number };

/** Where a keyset page continues: the sort value and id of the last entry of the previous page. */
export interface KeysetAfter {
  value: string | number;
  id: string;
}

/** Escapes LIKE's wildcards (`escape '\'`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The users who are members of a workspace (a workspace share's recipients, a workspace audience's streams). */
export async function workspaceMemberIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return rows.map((row) => row.user_id);
}

/** A folder met on a walk up or down the tree; `depth`: steps from where the walk started (0: that folder). */
export interface WalkedFolder {
  id: string;
  parent_id: string | null;
  name: string;
  trashed_at: string | null;
  depth: number;
}

/**
 * `folder_up(start_id, id, parent_id, name, trashed_at, depth)`: folders `startIds` (depth 0) and the folders above
 * each, up to its space's root. Bounded (`FOLDER_WALK_BOUND` steps, `union` with a depth column) so a cycle stored in
 * the table still ends; one recursive query instead of one query per level. Opens a `with recursive` list.
 */
export const folderAncestorsCte = (startIds: readonly string[]) => sql`folder_up(start_id, id, parent_id, name,
    trashed_at, depth) as (
    select id, id, parent_id, name, trashed_at, 0 from folders where id in (${sql.join(startIds)})
    union
    select u.start_id, f.id, f.parent_id, f.name, f.trashed_at, u.depth + 1
    from folders f join folder_up u on f.id = u.parent_id
    where u.depth < ${FOLDER_WALK_BOUND}
  )`;

/** Folder `id` and the folders above it, itself first, the root last (bounded: `folderAncestorsCte`). */
export async function folderAncestors(db: Db, id: string): Promise<WalkedFolder[]> {
  const { rows } = await sql<WalkedFolder & { depth: number | string }>`
    with recursive ${folderAncestorsCte([id])}
    select id, parent_id, name, trashed_at, depth from folder_up order by depth
  `.execute(db);
  return rows.map((row) => ({ ...row, depth: Number(row.depth) }));
}

/**
 * The folders below folder `id` (not itself), by level then name; each once. Bounded like `folderAncestorsCte`;
 * `trashed`: walk through folders in the trash too (otherwise the walk stops at them).
 */
export async function folderDescendants(db: Db, id: string, trashed = false): Promise<WalkedFolder[]> {
  const live = trashed ? sql`` : sql`and f.trashed_at is null`;
  const { rows } = await sql<WalkedFolder & { name_key: string; depth: number | string }>`
    with recursive folder_down(id, parent_id, name, name_key, trashed_at, depth) as (
      select id, parent_id, name, name_key, trashed_at, 0 from folders where id = ${id}
      union
      select f.id, f.parent_id, f.name, f.name_key, f.trashed_at, d.depth + 1
      from folders f join folder_down d on f.parent_id = d.id
      where d.depth < ${FOLDER_WALK_BOUND} ${live}
    )
    select id, parent_id, name, trashed_at, depth from folder_down where depth > 0 order by depth, name_key, id
  `.execute(db);
  // A cycle stored in the table would list its members again at each turn: keep the first meeting.
  const seen = new Set<string>([id]);
  return rows
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .map((row) => ({
      id: row.id,
      parent_id: row.parent_id,
      name: row.name,
      trashed_at: row.trashed_at,
      depth: Number(row.depth),
    }));
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

/**
 * The members a workspace's messages are delivered to: those who accepted or opened it at least once
 * (docs/PRODUCT.md#workspace-messages). Someone added without being asked gets the membership notice only.
 */
export async function workspaceAudienceIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('opened_at', 'is not', null)
    .execute();
  return rows.map((row) => row.user_id);
}

/** What the members screen shows of a member or an invited person. */
const MEMBER_USER_COLUMNS = [
  'users.owner_key',
  'users.name',
  'users.nickname',
  'users.email',
  'users.picture',
] as const;

/** Plain queries on workspaces, members and folders; no product rules here. */
export const createSpacesRepository = (db: Db) => {
  const memberCount = sql<number>`(select count(*) from workspace_members m where m.workspace_id = workspaces.id)`;

  return {
    /** Runs `work` in one transaction (a workspace and its root folder are created together). */
    transaction: <T>(work: (trx: Db) => Promise<T>): Promise<T> => db.transaction().execute(work),

    async insertWorkspace(trx: Db, workspace: WorkspaceRow, root: FolderRow, ownerId: string): Promise<void> {
      await trx.insertInto('workspaces').values(workspace).execute();
      await trx.insertInto('folders').values(root).execute();
      await trx
        .insertInto('workspace_members')
        .values({
          workspace_id: workspace.id,
          user_id: ownerId,
          role: 'owner',
          added_by: ownerId,
          added_at: workspace.created_at,
          opened_at: workspace.created_at,
        })
        .execute();
    },

    /** Workspace `id` as user `userId` sees it (member_role null when not a member). */
    async findWorkspace(id: string, userId: string): Promise<WorkspaceView | undefined> {
      const row = await db
        .selectFrom('workspaces')
        .leftJoin('workspace_members as me', (join) =>
          join.onRef('me.workspace_id', '=', 'workspaces.id').on('me.user_id', '=', userId),
        )
        .selectAll('workspaces')
        .select(['me.role as member_role', memberCount.as('member_count')])
        .where('workspaces.id', '=', id)
        .executeTakeFirst();
      return row && { ...row, member_count: Number(row.member_count) };
    },

    /** The workspaces user `userId` is a member of, by name. */
    async listWorkspacesOf(userId: string): Promise<WorkspaceView[]> {
      const rows = await db
        .selectFrom('workspaces')
        .innerJoin('workspace_members as me', 'me.workspace_id', 'workspaces.id')
        .selectAll('workspaces')
        .select(['me.role as member_role', memberCount.as('member_count')])
        .where('me.user_id', '=', userId)
        .orderBy(sql`lower(workspaces.name)`)
        .orderBy('workspaces.id')
        .execute();
      return rows.map((row) => ({ ...row, member_count: Number(row.member_count) }));
    },

    async renameWorkspace(id: string, name: string, now: string): Promise<void> {
      await db.updateTable('workspaces').set({ name, updated_at: now }).where('id', '=', id).execute();
      await db
        .updateTable('folders')
        .set({ name, updated_at: now })
        .where('workspace_id', '=', id)
        .where('parent_id', 'is', null)
        .execute();
    },

    /**
     * Deletes a workspace's file rows, folders, members and the workspace; answers the ids and blob keys of its files
     * and of their older versions.
     */
    async deleteWorkspace(id: string): Promise<{ id: string; blob_key: string }[]> {
      return db.transaction().execute(async (trx) => {
        const files = await trx.selectFrom('files').select(['id', 'blob_key']).where('workspace_id', '=', id).execute();
        // Older versions' bytes go too (their rows cascade with the files').
        files.push(
          ...(await trx
            .selectFrom('file_versions')
            .innerJoin('files', 'files.id', 'file_versions.file_id')
            .select(['file_versions.id', 'file_versions.blob_key'])
            .where('files.workspace_id', '=', id)
            .execute()),
        );
        await trx.deleteFrom('files').where('workspace_id', '=', id).execute();
        // Folders, members, shares and links go with the workspace (foreign keys cascade).
        await trx.deleteFrom('folders').where('workspace_id', '=', id).execute();
        await trx.deleteFrom('workspaces').where('id', '=', id).execute();
        return files;
      });
    },

    /** A workspace's bytes: its files (trashed ones included) and their older versions. */
    usedBytes: (workspaceId: string): Promise<number> => workspaceUsedBytes(db, workspaceId),

    async listMembers(workspaceId: string): Promise<MemberRow[]> {
      return db
        .selectFrom('workspace_members')
        .innerJoin('users', 'users.id', 'workspace_members.user_id')
        .select([
          ...MEMBER_USER_COLUMNS,
          'workspace_members.user_id',
          'workspace_members.role',
          'workspace_members.added_at',
        ])
        .where('workspace_members.workspace_id', '=', workspaceId)
        .orderBy('workspace_members.added_at')
        .orderBy('users.owner_key')
        .execute();
    },

    async memberRole(workspaceId: string, userId: string, trx: Db = db): Promise<MemberRole | undefined> {
      const row = await trx
        .selectFrom('workspace_members')
        .select('role')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role;
    },

    /**
     * Takes the workspace's row lock for the rest of the transaction (an update: a row lock on PostgreSQL, the write
     * lock on SQLite), so membership changes of one workspace run one after another.
     */
    async lockWorkspace(trx: Db, workspaceId: string, now: string): Promise<void> {
      await trx.updateTable('workspaces').set({ updated_at: now }).where('id', '=', workspaceId).execute();
    },

    async ownerCount(trx: Db, workspaceId: string): Promise<number> {
      const row = await trx
        .selectFrom('workspace_members')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('workspace_id', '=', workspaceId)
        .where('role', '=', 'owner')
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async upsertMember(
      trx: Db,
      values: {
        workspaceId: string;
        userId: string;
        role: MemberRole;
        addedBy: string | null;
        now: string;
        /** Accepted an invitation: the workspace's messages reach them at once. */
        opened?: boolean;
      },
    ): Promise<void> {
      await trx
        .insertInto('workspace_members')
        .values({
          workspace_id: values.workspaceId,
          user_id: values.userId,
          role: values.role,
          added_by: values.addedBy,
          added_at: values.now,
          opened_at: values.opened ? values.now : null,
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: values.role }))
        .execute();
    },

    async deleteMember(trx: Db, workspaceId: string, userId: string): Promise<void> {
      await trx
        .deleteFrom('workspace_members')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .execute();
    },

    /** Records that a member opened the workspace (the first time only; nothing for non-members). */
    async markOpened(workspaceId: string, userId: string, now: string): Promise<void> {
      // Read first: every folder listing asks, and only the first one of a member writes.
      const row = await db
        .selectFrom('workspace_members')
        .select('opened_at')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row || row.opened_at !== null) return;
      await db
        .updateTable('workspace_members')
        .set({ opened_at: now })
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .where('opened_at', 'is', null)
        .execute();
    },

    async findInvitation(workspaceId: string, userId: string, trx: Db = db) {
      return trx
        .selectFrom('workspace_invitations')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async upsertInvitation(
      trx: Db,
      values: { workspaceId: string; userId: string; role: MemberRole; invitedBy: string; now: string },
    ): Promise<void> {
      await trx
        .insertInto('workspace_invitations')
        .values({
          workspace_id: values.workspaceId,
          user_id: values.userId,
          role: values.role,
          invited_by: values.invitedBy,
          invited_at: values.now,
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: values.role }))
        .execute();
    },

    /** Deletes an invitation; answers whether there was one. */
    async deleteInvitation(trx: Db, workspaceId: string, userId: string): Promise<boolean> {
      const result = await trx
        .deleteFrom('workspace_invitations')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** People invited to a workspace who have not answered yet, as the members screen lists them. */
    async listInvitations(workspaceId: string): Promise<MemberRow[]> {
      return db
        .selectFrom('workspace_invitations')
        .innerJoin('users', 'users.id', 'workspace_invitations.user_id')
        .select([
          ...MEMBER_USER_COLUMNS,
          'workspace_invitations.user_id',
          'workspace_invitations.role',
          'workspace_invitations.invited_at as added_at',
        ])
        .where('workspace_invitations.workspace_id', '=', workspaceId)
        .orderBy('workspace_invitations.invited_at')
        .orderBy('users.owner_key')
        .execute();
    },

    /** A workspace's name (undefined: no such workspace). */
    async workspaceName(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('workspaces').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name;
    },

    /** The owner key of user `id` (undefined: no such user, or no id). */
    async ownerKeyOfUser(id: string | null): Promise<string | undefined> {
      if (id === null) return undefined;
      const row = await db.selectFrom('users').select('owner_key').where('id', '=', id).executeTakeFirst();
      return row?.owner_key;
    },

    async findUserByOwnerKey(ownerKey: string): Promise<(DirectoryRow & { id: string; role: string }) | undefined> {
      return db
        .selectFrom('users')
        .select(['id', 'owner_key', 'name', 'nickname', 'email', 'picture', 'role'])
        .where('owner_key', '=', ownerKey)
        .executeTakeFirst();
    },

    /**
     * People who have signed in (users with an identity provider account; the built-in admin has none), whose name,
     * nickname, email or owner key contains `query`, case-insensitively; those starting with it first.
     */
    async searchDirectory(query: string, limit: number): Promise<DirectoryRow[]> {
      const needle = query.toLowerCase();
      const contains = `%${likeLiteral(needle)}%`;
      const starts = `${likeLiteral(needle)}%`;
      const fields = ['name', 'nickname', 'email', 'owner_key'] as const;
      return db
        .selectFrom('users')
        .select(['owner_key', 'name', 'nickname', 'email', 'picture'])
        .where('oidc_subject', 'is not', null)
        .where((eb) =>
          eb.or(
            fields.map((field) =>
              eb(sql`lower(coalesce(${sql.ref(field)}, ''))`, 'like', sql`${contains} escape '\\'`),
            ),
          ),
        )
        .orderBy(
          sql`case when ${sql.join(
            fields.map((field) => sql`lower(coalesce(${sql.ref(field)}, '')) like ${starts} escape '\\'`),
            sql` or `,
          )} then 0 else 1 end`,
        )
        .orderBy(sql`lower(coalesce(name, nickname, owner_key))`)
        .orderBy('owner_key')
        .limit(limit)
        .execute();
    },

    // ---- folders ----

    /** Folder `id` unless it is in the trash (itself or with a folder above it). */
    async findFolder(id: string): Promise<FolderRow | undefined> {
      return db
        .selectFrom('folders')
        .selectAll()
        .where('id', '=', id)
        .where('trashed_at', 'is', null)
        .executeTakeFirst();
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
    async height(id: string, trashed = false, trx: Db = db): Promise<number> {
      const below = await folderDescendants(trx, id, trashed);
      return below.reduce((most, row) => Math.max(most, row.depth), 0);
    },

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
          const rows = await trx
            .selectFrom('files')
            .select(['id', 'blob_key'])
            .where('folder_id', 'in', chunk)
            .execute();
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
      let query = db
        .selectFrom('folders')
        .selectAll()
        .where('parent_id', '=', parentId)
        .where('trashed_at', 'is', null);
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
      let query = db.selectFrom('files').selectAll().where('folder_id', '=', folderId).where('trashed_at', 'is', null);
      if (filter.kind) query = query.where(fileKindCondition(filter.kind, sql.ref('content_type')));
      if (filter.nameKeys) query = query.where('name_key', 'in', filter.nameKeys);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb(key, op, after.value), eb.and([eb(key, '=', after.value), eb('id', op, after.id)])]),
        );
      }
      const direction = desc ? 'desc' : 'asc';
      return query.orderBy(key, direction).orderBy('id', direction).limit(limit).execute();
    },
  };
};

export type SpacesRepository = ReturnType<typeof createSpacesRepository>;
