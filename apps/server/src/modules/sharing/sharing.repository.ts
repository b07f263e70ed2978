import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import type { FilesTable, FoldersTable, SharesTable } from '../../db/schema';
import { workspaceMemberIds } from '../spaces';

export type ShareRow = Selectable<SharesTable>;

/** The shared resource: a file or a folder. */
export type ShareResource = { kind: 'file'; id: string } | { kind: 'folder'; id: string };
/** Who a share is granted to: a user (by id) or a workspace. */
export type ShareGrantee = { kind: 'user'; id: string } | { kind: 'workspace'; id: string };

/** A share with the names its presenter shows: the grantee's and the sharer's. */
export interface ShareView extends ShareRow {
  grantee_owner_key: string | null;
  grantee_name: string | null;
  grantee_nickname: string | null;
  grantee_email: string | null;
  grantee_picture: string | null;
  grantee_workspace_name: string | null;
  sharer_name: string | null;
  sharer_nickname: string | null;
  sharer_owner_key: string | null;
}

/** A share reaching a user, with the file or folder it is on. */
export type SharedFileRow = Selectable<FilesTable> &
  Pick<ShareView, 'sharer_name' | 'sharer_nickname' | 'sharer_owner_key'> & {
    share_role: 'viewer' | 'editor';
    shared_at: string;
  };
export type SharedFolderRow = Selectable<FoldersTable> &
  Pick<ShareView, 'sharer_name' | 'sharer_nickname' | 'sharer_owner_key'> & {
    share_role: 'viewer' | 'editor';
    shared_at: string;
  };

const resourceColumn = (resource: ShareResource) => (resource.kind === 'file' ? 'file_id' : 'folder_id');
const granteeColumn = (grantee: ShareGrantee) => (grantee.kind === 'user' ? 'grantee_user_id' : 'grantee_workspace_id');

/** Plain queries on `shares` (migration 0012): one row per resource and grantee. */
export function createSharingRepository(db: Db) {
  const views = () =>
    db
      .selectFrom('shares')
      .leftJoin('users as grantee', 'grantee.id', 'shares.grantee_user_id')
      .leftJoin('workspaces as gw', 'gw.id', 'shares.grantee_workspace_id')
      .leftJoin('users as sharer', 'sharer.id', 'shares.created_by')
      .selectAll('shares')
      .select([
        'grantee.owner_key as grantee_owner_key',
        'grantee.name as grantee_name',
        'grantee.nickname as grantee_nickname',
        'grantee.email as grantee_email',
        'grantee.picture as grantee_picture',
        'gw.name as grantee_workspace_name',
        'sharer.name as sharer_name',
        'sharer.nickname as sharer_nickname',
        'sharer.owner_key as sharer_owner_key',
      ]);

  /** Workspaces `userId` is a member of (a subquery). */
  const workspacesOf = (userId: string) =>
    db.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', userId);

  /** Shares reaching `userId` (granted to them or to a workspace of theirs) made by someone else, newest first. */
  const sharesReaching = (userId: string) =>
    db
      .selectFrom('shares')
      .leftJoin('users as sharer', 'sharer.id', 'shares.created_by')
      .select([
        'shares.role as share_role',
        'shares.created_at as shared_at',
        'sharer.name as sharer_name',
        'sharer.nickname as sharer_nickname',
        'sharer.owner_key as sharer_owner_key',
      ])
      .where((eb) =>
        eb.or([
          eb('shares.grantee_user_id', '=', userId),
          eb('shares.grantee_workspace_id', 'in', workspacesOf(userId)),
        ]),
      )
      .where((eb) => eb.or([eb('shares.created_by', 'is', null), eb('shares.created_by', '<>', userId)]))
      .orderBy('shares.created_at', 'desc');

  const repo = {
    async find(resource: ShareResource, grantee: ShareGrantee): Promise<ShareRow | undefined> {
      return db
        .selectFrom('shares')
        .selectAll()
        .where(resourceColumn(resource), '=', resource.id)
        .where(granteeColumn(grantee), '=', grantee.id)
        .executeTakeFirst();
    },

    async view(id: string): Promise<ShareView | undefined> {
      return views().where('shares.id', '=', id).executeTakeFirst();
    },

    /** The shares on a resource, oldest first. */
    async listOn(resource: ShareResource): Promise<ShareView[]> {
      return views()
        .where(`shares.${resourceColumn(resource)}`, '=', resource.id)
        .orderBy('shares.created_at')
        .orderBy('shares.id')
        .execute();
    },

    /**
     * Grants `role` on `resource` to `grantee`, or changes the role of the share that exists. Returns the share and
     * its role before (null: new). Two grants at once meet the unique index; the loser updates the winner's row.
     */
    async upsert(values: {
      resource: ShareResource;
      grantee: ShareGrantee;
      role: 'viewer' | 'editor';
      createdBy: string;
      now: string;
    }): Promise<{ id: string; before: 'viewer' | 'editor' | null }> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const existing = await repo.find(values.resource, values.grantee);
        if (existing) {
          if (existing.role !== values.role) {
            await db.updateTable('shares').set({ role: values.role }).where('id', '=', existing.id).execute();
          }
          return { id: existing.id, before: existing.role };
        }
        const id = randomUUID();
        try {
          await db
            .insertInto('shares')
            .values({
              id,
              file_id: values.resource.kind === 'file' ? values.resource.id : null,
              folder_id: values.resource.kind === 'folder' ? values.resource.id : null,
              grantee_user_id: values.grantee.kind === 'user' ? values.grantee.id : null,
              grantee_workspace_id: values.grantee.kind === 'workspace' ? values.grantee.id : null,
              role: values.role,
              created_by: values.createdBy,
              created_at: values.now,
            })
            .execute();
          return { id, before: null };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      throw new Error('could not store a share');
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('shares').where('id', '=', id).execute();
    },

    /** The users who are members of a workspace. */
    memberIds: (workspaceId: string): Promise<string[]> => workspaceMemberIds(db, workspaceId),

    async workspaceName(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('workspaces').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name;
    },

    /**
     * Files shared with `userId`, directly or with a workspace they are a member of; one row per share (the service
     * keeps the strongest per file). Shares the user made themselves are left out.
     */
    async filesSharedWith(userId: string): Promise<SharedFileRow[]> {
      return sharesReaching(userId)
        .innerJoin('files', 'files.id', 'shares.file_id')
        .selectAll('files')
        .where('files.trashed_at', 'is', null)
        .execute();
    },

    /** Folders shared with `userId`, as `filesSharedWith`. */
    async foldersSharedWith(userId: string): Promise<SharedFolderRow[]> {
      return sharesReaching(userId)
        .innerJoin('folders', 'folders.id', 'shares.folder_id')
        .selectAll('folders')
        .where('folders.trashed_at', 'is', null)
        .execute();
    },
  };
  return repo;
}

export type SharingRepository = ReturnType<typeof createSharingRepository>;
