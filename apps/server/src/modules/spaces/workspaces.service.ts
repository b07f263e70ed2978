import { randomUUID } from 'node:crypto';
import {
  DIRECTORY_LIMIT,
  PERSONAL_SPACE_NAME,
  type DirectoryUser,
  type Member,
  type MemberRole,
  type Space,
  type Workspace,
  type WorkspaceDetails,
} from '@atrium/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store/types';
import { displayNameOf, type UserActor } from '../../auth/actor';
import { requireWorkspace } from '../../auth/policies/workspace';
import type { ResourceAction } from '../../auth/policies/roles';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import type { EventEmitter, MemberAdded } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import { thumbnailKey } from '../files';
import type { FolderRow } from './folders.repository';
import type { SpacesRepository } from './spaces.repository';
import { presentPerson, presentWorkspace, rootFolderRow } from './workspace-views';
import type { WorkspaceView } from './workspaces.repository';

/** The 409s of the last-owner rule and the other membership messages. */
export const MEMBER_MESSAGES = {
  lastOwnerLeave:
    'You are the last owner of this workspace, so you cannot leave it. Make another member an owner first, or delete the workspace.',
  lastOwnerDemote: 'A workspace needs at least one owner. Make another member an owner first.',
  notMember: 'That person is not a member of this workspace.',
  unknownUser: 'No one with that id has signed in. People appear once they have signed in.',
} as const;

/** A membership notice: who added or invited whom to which workspace (docs/PRODUCT.md#workspace-members). */
export type MembershipNotice = MemberAdded;

/** Consent to membership: the admin's setting. */
export interface MembershipConsent {
  /** Whether adding someone invites them (accept or decline) instead of adding them at once. */
  mustAccept(): Promise<boolean>;
}

export interface WorkspacesServiceDeps {
  repo: SpacesRepository;
  blobs: BlobStore;
  clock: Clock;
  quotaBytes: number;
  log?: FastifyBaseLogger;
  /** Without it (tests of other modules), people are added at once. */
  consent?: MembershipConsent;
  /** Hears `member.added` for everyone added or invited (notifications tell them). */
  events?: EventEmitter;
}

/** What adding someone did: made them a member (with their previous role, if any) or invited them. */
export type MemberChange =
  | { member: Member; previousRole: MemberRole | undefined; invited: false }
  | { member: Member; previousRole: undefined; invited: true };

/** The audited changes of a workspace's members. */
type MemberAction =
  | 'workspace.member_added'
  | 'workspace.member_changed'
  | 'workspace.member_removed'
  | 'workspace.member_invited'
  | 'workspace.member_accepted'
  | 'workspace.member_declined';

/** Workspaces, their members, the space switcher and the directory of people (docs/PRODUCT.md#workspace-members). */
export function createWorkspacesService({
  repo,
  blobs,
  clock,
  quotaBytes,
  log,
  consent,
  events,
}: WorkspacesServiceDeps) {
  /** The workspace as the actor sees it, checked for `action` (404 for non-members, 403 for too weak a role). */
  const authorized = (actor: UserActor, id: string, action: ResourceAction) =>
    requireWorkspace(actor, id, action, async (workspaceId) => {
      const row = await repo.findWorkspace(workspaceId, actor.id);
      return row && { ...row, memberRole: row.member_role };
    }) as Promise<WorkspaceView & { member_role: MemberRole; memberRole: MemberRole }>;

  /** Emits an audited change of workspace `id`'s members (the audit log records it). */
  const changed = async (
    actor: UserActor,
    context: RequestContext,
    action: MemberAction,
    id: string,
    details: Record<string, unknown>,
  ) => events?.emit(action, { actor: actor.ownerKey, target: `workspace:${id}`, details, ...context });

  /** Changes a membership under the last-owner rule, in one transaction. */
  async function changeMembership(
    workspaceId: string,
    target: { id: string },
    change: { role: MemberRole } | 'remove',
    addedBy: string,
    lastOwnerMessage: string,
  ): Promise<MemberRole | undefined> {
    return repo.transaction(async (trx) => {
      // Two owners stepping down at once must not leave none: changes of one workspace take turns.
      await repo.lockWorkspace(trx, workspaceId, iso(clock.now()));
      const current = await repo.memberRole(workspaceId, target.id, trx);
      const losesOwner = current === 'owner' && (change === 'remove' || change.role !== 'owner');
      if (losesOwner && (await repo.ownerCount(trx, workspaceId)) <= 1) {
        throw new AppError('CONFLICT', lastOwnerMessage);
      }
      if (change === 'remove') {
        if (current === undefined) throw new AppError('NOT_FOUND', MEMBER_MESSAGES.notMember);
        await repo.deleteMember(trx, workspaceId, target.id);
      } else {
        // Added directly (the setting is off now): an invitation from before is settled by it.
        await repo.deleteInvitation(trx, workspaceId, target.id);
        await repo.upsertMember(trx, {
          workspaceId,
          userId: target.id,
          role: change.role,
          addedBy,
          now: iso(clock.now()),
        });
      }
      return current;
    });
  }

  const service = {
    /** Workspace `id` if the actor may do `action` in it (the workspace policy: 404 when not a member, 403 by role). */
    authorize: authorized,

    /** The personal space's root folder of `actor`, created on first need. */
    personalRoot: (actor: UserActor): Promise<FolderRow> => service.personalRootOf(actor.ownerKey, actor.id),

    /**
     * The root folder of the personal space of `ownerKey`, created on first need (by `createdBy`; a unique index
     * settles a race).
     */
    async personalRootOf(ownerKey: string, createdBy: string | null): Promise<FolderRow> {
      const existing = await repo.findPersonalRoot(ownerKey);
      if (existing) return existing;
      const row = rootFolderRow({ ownerKey }, PERSONAL_SPACE_NAME, createdBy, iso(clock.now()));
      try {
        await repo.insertFolder(row);
        return row;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await repo.findPersonalRoot(ownerKey);
        if (!winner) throw error;
        return winner;
      }
    },

    /** The space switcher: the personal space, then each workspace the actor is a member of. */
    async spaces(actor: UserActor): Promise<Space[]> {
      const [root, workspaces] = await Promise.all([service.personalRoot(actor), repo.listWorkspacesOf(actor.id)]);
      return [
        { kind: 'personal', id: null, name: PERSONAL_SPACE_NAME, rootFolderId: root.id },
        ...workspaces.map((w) => ({
          kind: 'workspace' as const,
          id: w.id,
          name: w.name,
          role: w.member_role ?? 'viewer',
          rootFolderId: w.root_folder_id,
        })),
      ];
    },

    async create(actor: UserActor, name: string): Promise<Workspace> {
      const now = iso(clock.now());
      const id = randomUUID();
      const root = rootFolderRow({ workspaceId: id }, name, actor.id, now);
      await repo.transaction((trx) =>
        repo.insertWorkspace(
          trx,
          { id, name, created_by: actor.id, created_at: now, updated_at: now, root_folder_id: root.id },
          root,
          actor.id,
        ),
      );
      return presentWorkspace(await authorized(actor, id, 'read'));
    },

    async list(actor: UserActor): Promise<Workspace[]> {
      const rows = await repo.listWorkspacesOf(actor.id);
      return rows.map((row) => presentWorkspace({ ...row, member_role: row.member_role ?? 'viewer' }));
    },

    async get(actor: UserActor, id: string): Promise<WorkspaceDetails> {
      const workspace = await authorized(actor, id, 'read');
      await service.markOpened(actor, id);
      return { ...presentWorkspace(workspace), quotaBytes, usedBytes: await repo.usedBytes(id) };
    },

    async rename(actor: UserActor, id: string, name: string): Promise<WorkspaceDetails> {
      await authorized(actor, id, 'manage');
      await repo.renameWorkspace(id, name, iso(clock.now()));
      return service.get(actor, id);
    },

    /**
     * Deletes the workspace with its folders and files (rows first, then the bytes through the blob store; bytes a
     * crash leaves behind are orphans the upload sweep removes). Owners only.
     */
    async remove(actor: UserActor, id: string): Promise<{ id: string; deleted: true }> {
      await authorized(actor, id, 'manage');
      const { blobKeys, fileIds, folderIds } = await repo.deleteWorkspace(id);
      await Promise.all(blobKeys.flatMap((key) => [blobs.delete(key), blobs.delete(thumbnailKey(key))])).catch(
        (error: unknown) => log?.warn({ err: error, id }, 'could not remove the bytes of a deleted workspace'),
      );
      await events?.emit('items.purged', { fileIds, folderIds });
      return { id, deleted: true };
    },

    /**
     * Records that the actor opened workspace `id` (its page or a folder of it): from then on its messages reach
     * them (docs/PRODUCT.md#workspace-messages). Nothing for non-members.
     */
    async markOpened(actor: UserActor, id: string): Promise<void> {
      await repo.markOpened(id, actor.id, iso(clock.now()));
    },

    /** The members, then the people invited who have not answered yet (`status: 'invited'`). */
    async members(actor: UserActor, id: string): Promise<Member[]> {
      await authorized(actor, id, 'read');
      const [members, invited] = await Promise.all([repo.listMembers(id), repo.listInvitations(id)]);
      return [
        ...members.map((row) => ({
          ...presentPerson(row),
          role: row.role,
          addedAt: row.added_at,
          status: 'member' as const,
        })),
        ...invited.map((row) => ({
          ...presentPerson(row),
          role: row.role,
          addedAt: row.added_at,
          status: 'invited' as const,
        })),
      ];
    },

    /**
     * Adds a member or changes their role (owners). Someone who is not a member yet is told who added them to what,
     * or, when the admin's setting asks for consent, only invited: they become a member once they accept
     * (docs/PRODUCT.md#workspace-members). The last owner cannot be demoted.
     */
    async setMember(
      actor: UserActor,
      id: string,
      ownerKey: string,
      role: MemberRole,
      context: RequestContext = {},
    ): Promise<MemberChange> {
      const workspace = await authorized(actor, id, 'manage');
      const target = await repo.findUserByOwnerKey(ownerKey);
      if (!target) throw new AppError('USER_NOT_FOUND', MEMBER_MESSAGES.unknownUser);
      const isMember = (await repo.memberRole(id, target.id)) !== undefined;
      const notice = (state: 'added' | 'invited'): MembershipNotice => ({
        userId: target.id,
        workspace: { id, name: workspace.name },
        by: { id: actor.id, name: displayNameOf(actor) },
        role,
        state,
      });
      // `emit` logs a failing reaction (a notice not sent): the membership change stands.
      const tell = async (state: 'added' | 'invited') => events?.emit('member.added', notice(state));
      const audited = (action: MemberAction, details: Record<string, unknown>) =>
        changed(actor, context, action, id, details);

      if (!isMember && consent && (await consent.mustAccept())) {
        const now = iso(clock.now());
        await repo.transaction((trx) =>
          repo.upsertInvitation(trx, { workspaceId: id, userId: target.id, role, invitedBy: actor.id, now }),
        );
        const invitation = await repo.findInvitation(id, target.id);
        await audited('workspace.member_invited', { member: ownerKey, role });
        await tell('invited');
        return {
          member: { ...presentPerson(target), role, addedAt: invitation?.invited_at ?? now, status: 'invited' },
          previousRole: undefined,
          invited: true,
        };
      }
      const previousRole = await changeMembership(id, target, { role }, actor.id, MEMBER_MESSAGES.lastOwnerDemote);
      const member = (await repo.listMembers(id)).find((row) => row.user_id === target.id);
      if (!member) throw new AppError('NOT_FOUND', MEMBER_MESSAGES.notMember);
      if (previousRole !== member.role)
        await audited(previousRole === undefined ? 'workspace.member_added' : 'workspace.member_changed', {
          member: ownerKey,
          role: member.role,
          ...(previousRole ? { previousRole } : {}),
        });
      if (previousRole === undefined && target.id !== actor.id) await tell('added');
      if (previousRole !== undefined && previousRole !== member.role && target.id !== actor.id) {
        await events?.emit('member.changed', { ...notice('added'), role: member.role, previousRole });
      }
      return {
        member: { ...presentPerson(member), role: member.role, addedAt: member.added_at, status: 'member' },
        previousRole,
        invited: false,
      };
    },

    /** The invited actor accepts: a member from now on, whose workspace messages reach them. 404 without an invitation. */
    async accept(actor: UserActor, id: string, context: RequestContext = {}): Promise<Workspace> {
      const role = await repo.transaction(async (trx) => {
        await repo.lockWorkspace(trx, id, iso(clock.now()));
        const invitation = await repo.findInvitation(id, actor.id, trx);
        if (!invitation) throw new AppError('WORKSPACE_NOT_FOUND');
        await repo.deleteInvitation(trx, id, actor.id);
        await repo.upsertMember(trx, {
          workspaceId: id,
          userId: actor.id,
          role: invitation.role,
          addedBy: invitation.invited_by,
          now: iso(clock.now()),
          opened: true,
        });
        return invitation.role;
      });
      const workspace = presentWorkspace(await authorized(actor, id, 'read'));
      await changed(actor, context, 'workspace.member_accepted', id, { member: actor.ownerKey, role });
      return workspace;
    },

    /** The invited actor declines: the invitation is gone. 404 without one. */
    async decline(actor: UserActor, id: string, context: RequestContext = {}): Promise<{ id: string; declined: true }> {
      const found = await repo.transaction((trx) => repo.deleteInvitation(trx, id, actor.id));
      if (!found) throw new AppError('WORKSPACE_NOT_FOUND');
      await changed(actor, context, 'workspace.member_declined', id, { member: actor.ownerKey });
      return { id, declined: true };
    },

    /**
     * Removes a member (owners), or the caller themselves (leaving: any member). The last owner can do neither.
     */
    async removeMember(
      actor: UserActor,
      id: string,
      ownerKey: string,
      context: RequestContext = {},
    ): Promise<{ ownerKey: string; removed: true }> {
      const leaving = ownerKey === actor.ownerKey;
      const removed = (details: Record<string, unknown>) =>
        changed(actor, context, 'workspace.member_removed', id, { member: ownerKey, left: leaving, ...details });
      await authorized(actor, id, leaving ? 'read' : 'manage');
      const target = leaving ? actor : await repo.findUserByOwnerKey(ownerKey);
      if (!target) throw new AppError('NOT_FOUND', MEMBER_MESSAGES.notMember);
      // An owner withdraws an invitation not answered yet.
      if (!leaving && (await repo.transaction((trx) => repo.deleteInvitation(trx, id, target.id)))) {
        await removed({ invitation: true });
        return { ownerKey, removed: true };
      }
      await changeMembership(
        id,
        target,
        'remove',
        actor.id,
        leaving ? MEMBER_MESSAGES.lastOwnerLeave : MEMBER_MESSAGES.lastOwnerDemote,
      );
      await removed({});
      return { ownerKey, removed: true };
    },

    /** People who have signed in, matching `query` (empty: the first of everyone), at most `DIRECTORY_LIMIT`. */
    async directory(query: string): Promise<DirectoryUser[]> {
      return (await repo.searchDirectory(query, DIRECTORY_LIMIT)).map(presentPerson);
    },
  };
  return service;
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
