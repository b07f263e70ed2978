import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db';
import { likeLiteral } from '../../db/like-literal';
import type { MemberRole, UsersTable, WorkspacesTable } from '../../db/schema';
import { workspaceUsedBytes } from '../files';
import type { FolderRow } from './folders.repository';

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type DirectoryRow = Pick<UsersTable, 'owner_key' | 'name' | 'nickname' | 'email' | 'picture'>;
export type MemberRow = DirectoryRow & { user_id: string; role: MemberRole; added_at: string };

/** A workspace with the asking user's role in it (null: not a member) and its member count. */
export type WorkspaceView = WorkspaceRow & { member_role: MemberRole | null; member_count: number };

/** The users who are members of a workspace (a workspace share's recipients, a workspace audience's streams). */
export async function workspaceMemberIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return rows.map((row) => row.user_id);
}

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

/** Plain queries on workspaces, their members and invitations, and the people directory; no product rules here. */
export const createWorkspacesRepository = (db: Db) => {
  const memberCount = sql<number>`(select count(*) from workspace_members m where m.workspace_id = workspaces.id)`;

  return {
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
     * Deletes a workspace's file rows, folders, members and the workspace; answers the blob keys of its files and of
     * their older versions, and the ids of the files and folders that went.
     */
    async deleteWorkspace(id: string): Promise<{ blobKeys: string[]; fileIds: string[]; folderIds: string[] }> {
      return db.transaction().execute(async (trx) => {
        const files = await trx.selectFrom('files').select(['id', 'blob_key']).where('workspace_id', '=', id).execute();
        // Older versions' bytes go too (their rows cascade with the files').
        const versions = await trx
          .selectFrom('file_versions')
          .innerJoin('files', 'files.id', 'file_versions.file_id')
          .select(['file_versions.blob_key'])
          .where('files.workspace_id', '=', id)
          .execute();
        const folders = await trx.selectFrom('folders').select('id').where('workspace_id', '=', id).execute();
        await trx.deleteFrom('files').where('workspace_id', '=', id).execute();
        // Folders, members, shares and links go with the workspace (foreign keys cascade).
        await trx.deleteFrom('folders').where('workspace_id', '=', id).execute();
        await trx.deleteFrom('workspaces').where('id', '=', id).execute();
        return {
          blobKeys: [...files, ...versions].map((row) => row.blob_key),
          fileIds: files.map((file) => file.id),
          folderIds: folders.map((folder) => folder.id),
        };
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
  };
};
