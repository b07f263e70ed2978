import {
  SHARE_TEXTS,
  sharedWithYouMessage,
  type RevokeShareResponse,
  type Share,
  type ShareList,
  type SharedWithMe,
  type ShareRole,
} from '@atrium/contracts';
import { displayNameOf, type UserActor } from '../../auth/actor';
import type { ResourceAction } from '../../auth/policies/roles';
import { strongerRole } from '../../auth/policies/roles';
import { canWorkspace, requireWorkspace } from '../../auth/policies/workspace';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { iso, type Clock } from '../../lib/time';
import { presentFile, type FilesService, toStoredFile } from '../files';
import { type FoldersService, type SpacesRepository, MEMBER_MESSAGES } from '../spaces';
import type { ShareGrantee, ShareResource, ShareView, SharingRepository } from './sharing.repository';

/** The 400/404 messages of sharing (contracts' `SHARE_TEXTS`, and the unknown-person 404 of members). */
export const SHARE_MESSAGES = { ...SHARE_TEXTS, unknownUser: MEMBER_MESSAGES.unknownUser } as const;

/** How a grantee is named in a request: a person by owner key, or a workspace by id. */
export type GranteeInput = { kind: 'user'; ownerKey: string } | { kind: 'workspace'; id: string };

export interface SharingServiceDeps {
  repo: SharingRepository;
  files: Pick<FilesService, 'authorize'>;
  folders: Pick<FoldersService, 'authorize'>;
  spaces: Pick<SpacesRepository, 'findUserByOwnerKey' | 'findWorkspace'>;
  /** Hears `share.granted` for each new grant or role change (notifications tell the recipients). */
  events?: EventEmitter;
  clock: Clock;
}

/** What sharing needs to know of a file or folder the actor may act on. */
interface Checked {
  name: string;
  workspaceId: string | null;
  /** The personal space's owner key (null for a workspace item). */
  ownerKey: string | null;
}

const sharerName = (row: {
  sharer_name: string | null;
  sharer_nickname: string | null;
  sharer_owner_key: string | null;
}) => displayNameOf({ name: row.sharer_name, nickname: row.sharer_nickname, ownerKey: row.sharer_owner_key });

const presentShare = (row: ShareView): Share => ({
  id: row.id,
  role: row.role,
  grantee:
    row.grantee_workspace_id !== null
      ? { kind: 'workspace', id: row.grantee_workspace_id, name: row.grantee_workspace_name ?? '' }
      : {
          kind: 'user',
          user: {
            ownerKey: row.grantee_owner_key ?? '',
            name: row.grantee_name,
            nickname: row.grantee_nickname,
            email: row.grantee_email,
            picture: row.grantee_picture,
          },
        },
  createdAt: row.created_at,
  createdBy: sharerName(row),
});

/**
 * Sharing files and folders with people and workspaces (docs/PRODUCT.md#sharing-with-people). Who may share, list or
 * revoke is the file and folder policies' `share` action (owners and editors; viewers 403, others 404), asked through
 * the files and folders services; a recipient may also drop a share they received. New grants and role changes notify
 * the recipients.
 */
export function createSharingService({ repo, files, folders, spaces, events, clock }: SharingServiceDeps) {
  /** The resource, if the actor may do `action` to it (the policies' 404/403 otherwise). */
  async function load(actor: UserActor, resource: ShareResource, action: ResourceAction): Promise<Checked> {
    if (resource.kind === 'file') {
      const file = await files.authorize(actor, resource.id, action);
      return {
        name: file.fileName,
        workspaceId: file.workspaceId,
        ownerKey: file.workspaceId === null ? file.ownerKey : null,
      };
    }
    const folder = await folders.authorize(actor, resource.id, action);
    return { name: folder.name, workspaceId: folder.workspace_id, ownerKey: folder.owner_key };
  }

  /** The grantee a request names: an existing person (404 otherwise), or a workspace the actor is a member of. */
  async function resolveGrantee(
    actor: UserActor,
    input: GranteeInput,
    checkMembership: boolean,
  ): Promise<ShareGrantee> {
    if (input.kind === 'user') {
      const user = await spaces.findUserByOwnerKey(input.ownerKey);
      if (!user) throw new AppError('USER_NOT_FOUND', SHARE_MESSAGES.unknownUser);
      return { kind: 'user', id: user.id };
    }
    if (checkMembership) {
      await requireWorkspace(actor, input.id, 'read', async (id) => {
        const row = await spaces.findWorkspace(id, actor.id);
        return row && { memberRole: row.member_role };
      });
    }
    return { kind: 'workspace', id: input.id };
  }

  /** Tells the recipients: a person, or a workspace's members but the sharer (one notification each). */
  async function announce(actor: UserActor, grantee: ShareGrantee, item: Checked, resource: ShareResource) {
    const message = sharedWithYouMessage(displayNameOf(actor), item.name);
    const recipients =
      grantee.kind === 'user' ? [grantee.id] : (await repo.memberIds(grantee.id)).filter((id) => id !== actor.id);
    await events?.emit('share.granted', {
      recipientIds: recipients,
      message,
      by: actor.id,
      item: { kind: resource.kind, id: resource.id, workspaceId: item.workspaceId },
    });
  }

  return {
    /** Grants or changes a share; `created` tells a new share (201) from a changed one (200). */
    async set(
      actor: UserActor,
      resource: ShareResource,
      input: GranteeInput,
      role: ShareRole,
    ): Promise<{ created: boolean; share: Share }> {
      const item = await load(actor, resource, 'share');
      if (input.kind === 'user') {
        if (input.ownerKey === actor.ownerKey) throw new AppError('BAD_REQUEST', SHARE_MESSAGES.yourself);
        if (item.ownerKey !== null && input.ownerKey === item.ownerKey) {
          throw new AppError('BAD_REQUEST', SHARE_MESSAGES.ownerAlready);
        }
      } else if (item.workspaceId === input.id) {
        throw new AppError('BAD_REQUEST', SHARE_MESSAGES.ownWorkspace);
      }
      const grantee = await resolveGrantee(actor, input, true);
      const { id, before } = await repo.upsert({ resource, grantee, role, createdBy: actor.id, now: iso(clock.now()) });
      if (before !== role) await announce(actor, grantee, item, resource);
      const view = await repo.view(id);
      if (!view) throw new AppError('NOT_FOUND', SHARE_MESSAGES.noShare);
      return { created: before === null, share: presentShare(view) };
    },

    /**
     * Revokes a share: anyone who may share the item, the person it was shared with (dropping it from their Shared
     * with me), or an owner of the workspace it was shared with. A missing share is 404.
     */
    async revoke(actor: UserActor, resource: ShareResource, input: GranteeInput): Promise<RevokeShareResponse> {
      if (input.kind === 'user' && input.ownerKey === actor.ownerKey) {
        const own = await repo.find(resource, { kind: 'user', id: actor.id });
        if (own) {
          await repo.remove(own.id);
          return { id: own.id, revoked: true };
        }
      }
      if (input.kind === 'workspace') {
        // A workspace's owners may turn down what was shared with their workspace.
        const workspace = await spaces.findWorkspace(input.id, actor.id);
        if (workspace && canWorkspace(actor, 'manage', { memberRole: workspace.member_role })) {
          const received = await repo.find(resource, { kind: 'workspace', id: input.id });
          if (received) {
            await repo.remove(received.id);
            return { id: received.id, revoked: true };
          }
        }
      }
      await load(actor, resource, 'share');
      const grantee = await resolveGrantee(actor, input, false);
      const share = await repo.find(resource, grantee);
      if (!share) throw new AppError('NOT_FOUND', SHARE_MESSAGES.noShare);
      await repo.remove(share.id);
      return { id: share.id, revoked: true };
    },

    /** Who has access: the owner (a person, or the workspace) and every share. */
    async list(actor: UserActor, resource: ShareResource): Promise<ShareList> {
      const item = await load(actor, resource, 'share');
      let owner: ShareList['owner'];
      if (item.workspaceId !== null) {
        owner = { kind: 'workspace', id: item.workspaceId, name: (await repo.workspaceName(item.workspaceId)) ?? '' };
      } else {
        const person = item.ownerKey === null ? undefined : await spaces.findUserByOwnerKey(item.ownerKey);
        owner = {
          kind: 'user',
          user: {
            ownerKey: item.ownerKey ?? '',
            name: person?.name ?? null,
            nickname: person?.nickname ?? null,
            email: person?.email ?? null,
            picture: person?.picture ?? null,
          },
        };
      }
      return { owner, shares: (await repo.listOn(resource)).map(presentShare) };
    },

    /**
     * What others shared with the actor, directly or with a workspace of theirs: each file and folder once, with the
     * strongest role reaching the actor, newest share first. Their own personal items are left out.
     */
    async sharedWithMe(actor: UserActor): Promise<SharedWithMe> {
      const [fileRows, folderRows] = await Promise.all([
        repo.filesSharedWith(actor.id),
        repo.foldersSharedWith(actor.id),
      ]);
      const mine = (row: { workspace_id: string | null; owner_key: string | null }) =>
        row.workspace_id === null && row.owner_key === actor.ownerKey;
      /** One entry per id: the newest share's date and sharer (rows come newest first), the strongest role. */
      const merge = <R extends { id: string; share_role: ShareRole }, E extends { role: ShareRole }>(
        rows: R[],
        make: (row: R) => E,
      ): E[] => {
        const byId = new Map<string, E>();
        for (const row of rows) {
          const seen = byId.get(row.id);
          if (!seen) byId.set(row.id, make(row));
          else seen.role = (strongerRole(seen.role, row.share_role) ?? seen.role) as ShareRole;
        }
        return [...byId.values()];
      };
      return {
        files: merge(
          fileRows.filter((row) => !mine(row)),
          (row) => ({
            ...presentFile(toStoredFile(row)),
            role: row.share_role,
            sharedBy: sharerName(row),
            sharedAt: row.shared_at,
          }),
        ),
        folders: merge(
          folderRows.filter((row) => !mine(row)),
          (row) => ({
            id: row.id,
            name: row.name,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
            role: row.share_role,
            sharedBy: sharerName(row),
            sharedAt: row.shared_at,
          }),
        ),
      };
    },
  };
}

export type SharingService = ReturnType<typeof createSharingService>;
