import { randomUUID } from 'node:crypto';
import type {
  AcceptInvitationRequest,
  InvitationCreated,
  InvitationSettings,
  InvitationSettingsPatch,
  MemberRole,
  PendingInvitation,
  PublicInvitation,
  Role,
} from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { isAdmin, type UserActor } from '../../auth/actor';
import type { RequestContext } from '../../lib/http/request-context';
import { hashPassword } from '../../lib/passwords';
import { iso, type Clock } from '../../lib/time';
import type { LocalCredentialsRepository, SessionUser, UsersRepository } from '../auth';
import { toSessionUser } from '../auth';
import type { AccountsRepository, InvitationRow } from './accounts.repository';

import { DAY_MS, hashToken, newToken, sameHash, type LocalAccountsService } from './local-accounts.service';

export interface AccountsServiceDeps {
  repo: AccountsRepository;
  credentials: LocalCredentialsRepository;
  users: UsersRepository;
  clock: Clock;
  events: EventEmitter;
  ttlDays: number;
  /** `PUBLIC_URL`: the absolute links the mail module sends. */
  publicUrl: string;
  mailEnabled: boolean;
  local: LocalAccountsService;
  adminUsername: string;
  /** The workspace `id` if the actor may `manage` it (404 / 403 otherwise). */
  authorizeWorkspace(actor: UserActor, id: string): Promise<{ id: string; name: string }>;
  /** Ends the user's sessions but `exceptSessionId`; answers how many ended. */
  endSessions(userId: string, exceptSessionId?: string): Promise<number>;
  /** Counts a failed current-password check like a failed sign-in (429 when over the limit). */
  limitPasswordChecks(ip: string, username: string): Promise<void>;
}

type Change = RequestContext & { actor: string | null };

export function createAccountsService(deps: AccountsServiceDeps) {
  const { repo, users, clock, events, local } = deps;
  const { requireStrong, requireFreeUsername, createLocalUser } = local;
  const now = () => iso(clock.now());
  const inDays = () => iso(new Date(clock.now().getTime() + deps.ttlDays * DAY_MS));
  const absolute = (path: string) => new URL(path, deps.publicUrl).toString();

  /** The invitation of `token`, or the refusal its state earns (404, or 410 with its own message). */
  async function usable(token: string): Promise<InvitationRow & { workspaceName: string | undefined }> {
    const row = await repo.findInvitationByHash(hashToken(token));
    if (!row || !sameHash(row.token_hash, token))
      throw new AppError('INVITATION_NOT_FOUND', ACCOUNT_TEXTS.invitationNotFound);
    if (row.accepted_at !== null) throw new AppError('INVITATION_USED', ACCOUNT_TEXTS.invitationUsed);
    if (row.revoked_at !== null) throw new AppError('INVITATION_REVOKED', ACCOUNT_TEXTS.invitationRevoked);
    const workspaceName = row.workspace_id === null ? undefined : await repo.workspaceName(row.workspace_id);
    if (row.for_workspace === 1 && workspaceName === undefined)
      throw new AppError('INVITATION_WORKSPACE_GONE', ACCOUNT_TEXTS.invitationWorkspaceGone);
    if (row.expires_at <= now()) throw new AppError('INVITATION_EXPIRED', ACCOUNT_TEXTS.invitationExpired);
    return { ...row, workspaceName };
  }

  /** Tells the mail module (and the audit log through `action`) that a link was made for the invitee. */
  async function sent(row: InvitationRow, token: string, inviter: UserActor, workspaceName: string | undefined) {
    await events.emit('invitation.sent', {
      invitationId: row.id,
      email: row.email,
      url: absolute(`/invite/${token}`),
      inviter: { id: inviter.id, name: inviter.name ?? inviter.ownerKey },
      workspace: row.workspace_id && workspaceName ? { id: row.workspace_id, name: workspaceName } : null,
      role: row.role,
      expiresAt: row.expires_at,
    });
  }

  async function invite(
    actor: UserActor,
    target: { workspaceId: string | null; workspaceName?: string; email: string; role: string },
    context: RequestContext,
  ): Promise<InvitationCreated> {
    const { token, hash } = newToken();
    const row: InvitationRow = {
      id: randomUUID(),
      token_hash: hash,
      email: target.email.toLowerCase(),
      workspace_id: target.workspaceId,
      role: target.role,
      invited_by: actor.id,
      created_at: now(),
      expires_at: inDays(),
      accepted_at: null,
      revoked_at: null,
      accepted_user_id: null,
      for_workspace: target.workspaceId === null ? 0 : 1,
    };
    await repo.insertInvitation(row);
    await events.emit('invitation.created', {
      actor: actor.ownerKey,
      target: target.workspaceId ? `workspace:${target.workspaceId}` : 'instance',
      details: { invitation: row.id, email: row.email, role: row.role },
      ...context,
    });
    await sent(row, token, actor, target.workspaceName);
    return { id: row.id, url: `/invite/${token}`, expiresAt: row.expires_at, emailed: deps.mailEnabled };
  }

  const present = (row: Awaited<ReturnType<AccountsRepository['pending']>>[number]): PendingInvitation => ({
    id: row.id,
    email: row.email,
    role: row.role,
    workspaceId: row.workspace_id,
    invitedBy: row.invited_by ? { id: row.invited_by, name: row.inviter_name ?? row.inviter_key ?? '' } : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    expired: row.expires_at <= now(),
  });

  /** The invitation `id` if the actor may revoke or resend it: an admin, or an owner of its workspace; else 404. */
  async function manageable(actor: UserActor, id: string) {
    const row = await repo.findInvitation(id);
    const missing = () => new AppError('NOT_FOUND', 'This invitation does not exist.');
    if (!row) throw missing();
    if (!isAdmin(actor)) {
      if (row.workspace_id === null) throw missing();
      await deps.authorizeWorkspace(actor, row.workspace_id).catch(() => {
        throw missing();
      });
    }
    if (row.accepted_at !== null) throw new AppError('CONFLICT', ACCOUNT_TEXTS.invitationUsed);
    if (row.revoked_at !== null) throw new AppError('CONFLICT', ACCOUNT_TEXTS.invitationRevoked);
    return row;
  }

  return {
    async settings(): Promise<InvitationSettings> {
      const stored = await repo.settings();
      let domains: string[] = [];
      try {
        const parsed: unknown = JSON.parse(stored.signUpDomains ?? '[]');
        if (Array.isArray(parsed)) domains = parsed.filter((d): d is string => typeof d === 'string');
      } catch {
        domains = [];
      }
      return { whoMayInvite: stored.whoMayInvite === 'admins' ? 'admins' : 'owners', signUpDomains: domains };
    },

    async updateSettings(actor: UserActor, patch: InvitationSettingsPatch, context: RequestContext) {
      const before = await this.settings();
      if (patch.whoMayInvite !== undefined) await repo.setSetting('whoMayInvite', patch.whoMayInvite, actor.id, now());
      if (patch.signUpDomains !== undefined)
        await repo.setSetting('signUpDomains', JSON.stringify([...new Set(patch.signUpDomains)]), actor.id, now());
      const after = await this.settings();
      await events.emit('settings.changed', {
        actor: actor.ownerKey,
        target: 'settings:invitations',
        details: { before, after },
        ...context,
      });
      return after;
    },

    async inviteToWorkspace(
      actor: UserActor,
      workspaceId: string,
      body: { email: string; role: MemberRole },
      context: RequestContext,
    ) {
      const workspace = await deps.authorizeWorkspace(actor, workspaceId);
      if (!isAdmin(actor) && (await this.settings()).whoMayInvite === 'admins')
        throw new AppError('FORBIDDEN', ACCOUNT_TEXTS.invitingNotAllowed);
      return invite(actor, { workspaceId, workspaceName: workspace.name, ...body }, context);
    },

    inviteToInstance: (actor: UserActor, body: { email: string; role: Role }, context: RequestContext) =>
      invite(actor, { workspaceId: null, ...body }, context),

    async workspaceInvitations(actor: UserActor, workspaceId: string) {
      await deps.authorizeWorkspace(actor, workspaceId);
      return { items: (await repo.pending(workspaceId)).map(present) };
    },

    instanceInvitations: async () => ({ items: (await repo.pending(null)).map(present) }),

    async revoke(actor: UserActor, id: string, context: RequestContext) {
      const row = await manageable(actor, id);
      if (!(await repo.revoke(id, now()))) throw new AppError('CONFLICT', ACCOUNT_TEXTS.invitationUsed);
      await events.emit('invitation.revoked', {
        actor: actor.ownerKey,
        target: row.workspace_id ? `workspace:${row.workspace_id}` : 'instance',
        details: { invitation: id, email: row.email },
        ...context,
      });
      return { id, revoked: true as const };
    },

    async resend(actor: UserActor, id: string, context: RequestContext): Promise<InvitationCreated> {
      const row = await manageable(actor, id);
      const { token, hash } = newToken();
      const expiresAt = inDays();
      if (!(await repo.renew(id, hash, expiresAt))) throw new AppError('CONFLICT', ACCOUNT_TEXTS.invitationUsed);
      await events.emit('invitation.resent', {
        actor: actor.ownerKey,
        target: row.workspace_id ? `workspace:${row.workspace_id}` : 'instance',
        details: { invitation: id, email: row.email },
        ...context,
      });
      const workspaceName = row.workspace_id ? await repo.workspaceName(row.workspace_id) : undefined;
      await sent({ ...row, token_hash: hash, expires_at: expiresAt }, token, actor, workspaceName);
      return { id, url: `/invite/${token}`, expiresAt, emailed: deps.mailEnabled };
    },

    async publicInvitation(token: string): Promise<PublicInvitation> {
      const row = await usable(token);
      const inviter = await repo.inviterName(row.invited_by);
      return {
        email: row.email,
        ...(row.workspaceName === undefined ? {} : { workspaceName: row.workspaceName }),
        role: row.role,
        expiresAt: row.expires_at,
        invitedBy: inviter?.name ?? inviter?.owner_key ?? 'An admin',
        // Nobody made it: the person asked for it on /signup (docs/PRODUCT.md#self-sign-up).
        ...(row.invited_by === null && row.workspace_id === null ? { signUp: true } : {}),
      };
    },

    /** Creates the local account the invitation was for and joins it; the caller signs it in. */
    async accept(token: string, body: AcceptInvitationRequest, context: RequestContext): Promise<SessionUser> {
      const row = await usable(token);
      requireStrong(body.password);
      await requireFreeUsername(body.username);
      const passwordHash = await hashPassword(body.password);
      if (!(await repo.claim(row.id, now()))) {
        await usable(token); // someone used or revoked it meanwhile: that refusal
        throw new AppError('INVITATION_USED', ACCOUNT_TEXTS.invitationUsed);
      }
      let user;
      try {
        user = await createLocalUser({
          username: body.username,
          name: body.name || null,
          email: row.email,
          role: row.for_workspace === 0 && row.role === 'admin' ? 'admin' : 'user',
          passwordHash,
        });
      } catch (error) {
        await repo.unclaim(row.id);
        throw error;
      }
      await repo.setAcceptedUser(row.id, user.id);
      if (row.workspace_id && row.for_workspace === 1)
        await repo.addMember(row.workspace_id, user.id, row.role as MemberRole, row.invited_by, now());
      const change: Change = { actor: user.owner_key, ...context };
      await events.emit('account.created', {
        ...change,
        target: `user:${user.owner_key}`,
        details: { via: 'invitation', username: body.username },
      });
      await events.emit('invitation.accepted', {
        ...change,
        target: row.workspace_id ? `workspace:${row.workspace_id}` : 'instance',
        details: { invitation: row.id, role: row.role },
      });
      return toSessionUser(user);
    },

    /** An identity-provider sign-in with a verified email joins that email's pending invitations at once. */
    async joinByVerifiedEmail(user: SessionUser, email: string, context: RequestContext) {
      for (const row of await repo.pendingFor(email.trim().toLowerCase(), now())) {
        if (row.for_workspace === 1 && (!row.workspace_id || !(await repo.workspaceName(row.workspace_id)))) continue;
        if (!(await repo.claim(row.id, now()))) continue;
        await repo.setAcceptedUser(row.id, user.id);
        if (row.workspace_id)
          await repo.addMember(row.workspace_id, user.id, row.role as MemberRole, row.invited_by, now());
        else if (row.role === 'admin' && user.role !== 'admin') await users.update(user.id, { role: 'admin' });
        await events.emit('invitation.accepted', {
          actor: user.ownerKey,
          target: row.workspace_id ? `workspace:${row.workspace_id}` : 'instance',
          details: { invitation: row.id, role: row.role, via: 'oidc' },
          ...context,
        });
      }
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
