import { randomUUID } from 'node:crypto';
import {
  ADMIN_USER_MESSAGES,
  type AdminUser,
  type AdminUserPatch,
  type AdminUsersQuery,
  type TransferFilesRequest,
  type TransferFilesResponse,
} from '@atrium/contracts';
import { requireAdmin } from '../../auth/policies/admin';
import { displayNameOf, type UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { sanitizeFileName } from '../../lib/file-names';
import { iso, type Clock } from '../../lib/time';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import { ADMIN_OWNER_KEY } from '../auth';
import { folderNameKey, numberedFolderName } from '../spaces';
import type { AdminUserRow, AdminUsersRepository } from './admin-users.repository';

export interface AdminUsersServiceDeps {
  repo: AdminUsersRepository;
  sessions: {
    /** Ends the user's sessions (all, or all but `exceptSessionId`) and their live streams; returns how many. */
    destroyAllForUser(userId: string, exceptSessionId?: string): Promise<number>;
  };
  /** Each change is emitted as its audited event (the audit log records them). */
  events: EventEmitter;
  clock: Clock;
  /** `USER_QUOTA_BYTES`: the quota of a user without one of their own. */
  defaultQuotaBytes: number;
  /** The personal spaces a transfer moves between (`WorkspacesService.personalRootOf`). */
  spaces: { personalRootOf(ownerKey: string, createdBy: string | null): Promise<{ id: string }> };
}

/** The name of the folder a transfer puts someone's files in, before numbering: "From <display name>". */
const transferFolderName = (displayName: string) => sanitizeFileName(`From ${displayName.replace(/[/\\]/g, '-')}`);

const encodeCursor = (ownerKey: string) => Buffer.from(ownerKey).toString('base64url');
const decodeCursor = (cursor: string) => {
  const value = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!value || encodeCursor(value) !== cursor)
    throw new AppError('BAD_REQUEST', 'The cursor is not valid. Start again from the first page.');
  return value;
};

/** The users screen: list, change role / status / quota, sign a user out everywhere. Admins only. */
export const createAdminUsersService = ({
  repo,
  sessions,
  events,
  clock,
  defaultQuotaBytes,
  spaces,
}: AdminUsersServiceDeps) => {
  const present = (row: AdminUserRow): AdminUser => ({
    userId: row.owner_key,
    id: row.id,
    name: row.name ?? row.nickname,
    email: row.email,
    role: row.role,
    disabled: row.disabled_at !== null,
    builtIn: row.owner_key === ADMIN_OWNER_KEY,
    localAccount: row.local_account,
    quotaBytes: row.quota_bytes,
    effectiveQuotaBytes: row.quota_bytes ?? defaultQuotaBytes,
    usedBytes: row.used_bytes,
    lastSignInAt: row.last_sign_in_at,
    sessions: row.sessions,
    createdAt: row.created_at,
  });
  const find = async (ownerKey: string) => {
    const row = await repo.findByOwnerKey(ownerKey);
    if (!row) throw new AppError('USER_NOT_FOUND', ADMIN_USER_MESSAGES.notFound);
    return row;
  };

  return {
    /** A page of users by owner key, and the cursor of the next page (null: last page). */
    async list(actor: UserActor, query: AdminUsersQuery): Promise<{ users: AdminUser[]; nextCursor: string | null }> {
      requireAdmin(actor, 'users');
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows = await repo.list({ q: query.q, after, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        users: page.map(present),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last.owner_key) : null,
      };
    },

    /**
     * Changes role, status or quota. The built-in admin and the acting admin keep their role and stay enabled
     * (409). Disabling ends every session and live stream of the user at once.
     */
    async update(
      actor: UserActor,
      ownerKey: string,
      patch: AdminUserPatch,
      context: RequestContext,
    ): Promise<AdminUser> {
      requireAdmin(actor, 'users');
      const row = await find(ownerKey);
      const demotes = patch.role === 'user' && row.role === 'admin';
      const disables = patch.disabled === true;
      if ((demotes || disables) && row.owner_key === ADMIN_OWNER_KEY)
        throw new AppError('CONFLICT', ADMIN_USER_MESSAGES.builtIn);
      if ((demotes || disables) && row.id === actor.id) throw new AppError('CONFLICT', ADMIN_USER_MESSAGES.self);

      const changes: Parameters<AdminUsersRepository['update']>[1] = {};
      if (patch.role !== undefined && patch.role !== row.role) changes.role = patch.role;
      const disabledNow = row.disabled_at !== null;
      if (patch.disabled !== undefined && patch.disabled !== disabledNow)
        changes.disabled_at = patch.disabled ? iso(clock.now()) : null;
      if (patch.quotaBytes !== undefined && patch.quotaBytes !== row.quota_bytes)
        changes.quota_bytes = patch.quotaBytes;
      if (Object.keys(changes).length === 0) return present(row);

      await repo.update(row.id, changes);
      const target = `user:${row.owner_key}`;
      const entry = { actor: actor.ownerKey, target, ...context };
      if (changes.disabled_at !== undefined) {
        if (changes.disabled_at !== null) {
          const ended = await sessions.destroyAllForUser(row.id);
          await events.emit('user.disabled', { ...entry, details: { sessionsEnded: ended } });
        } else {
          await events.emit('user.enabled', entry);
        }
      }
      if (changes.role !== undefined)
        await events.emit('user.role_changed', { ...entry, details: { from: row.role, to: changes.role } });
      if (changes.quota_bytes !== undefined)
        await events.emit('user.quota_changed', {
          ...entry,
          details: { from: row.quota_bytes, to: changes.quota_bytes },
        });
      return present(await find(ownerKey));
    },

    /** Signs the user out everywhere (for the acting admin: everywhere but here). Returns how many sessions ended. */
    async revokeSessions(
      actor: UserActor,
      ownerKey: string,
      currentSessionId: string | undefined,
      context: RequestContext,
    ): Promise<number> {
      requireAdmin(actor, 'users');
      const row = await find(ownerKey);
      const revoked = await sessions.destroyAllForUser(row.id, row.id === actor.id ? currentSessionId : undefined);
      await events.emit('user.sessions_revoked', {
        actor: actor.ownerKey,
        target: `user:${row.owner_key}`,
        details: { revoked },
        ...context,
      });
      return revoked;
    },

    /**
     * Transfer files (docs/PRODUCT.md#admin-console-users-and-audit-log): the one way an admin acts on someone's
     * files, for a person who has left. Moves every personal file and folder of `ownerKey` (disabled first: 409)
     * into a new folder "From <their name>" of the recipient's personal space, in one transaction, and records
     * `user.files_transferred`. The recipient's quota is not checked: the files must go somewhere, and an admin can
     * raise the quota; until then the recipient's uploads are refused as over quota.
     */
    async transferFiles(
      actor: UserActor,
      ownerKey: string,
      request: TransferFilesRequest,
      context: RequestContext,
    ): Promise<TransferFilesResponse> {
      requireAdmin(actor, 'users');
      const from = await find(ownerKey);
      if (request.toUserId === from.owner_key) throw new AppError('BAD_REQUEST', ADMIN_USER_MESSAGES.transferToSelf);
      const to = await repo.findByOwnerKey(request.toUserId);
      if (!to) throw new AppError('USER_NOT_FOUND', ADMIN_USER_MESSAGES.recipientNotFound);
      if (from.disabled_at === null) throw new AppError('CONFLICT', ADMIN_USER_MESSAGES.transferNotDisabled);
      if (to.disabled_at !== null) throw new AppError('CONFLICT', ADMIN_USER_MESSAGES.recipientDisabled);
      const root = await spaces.personalRootOf(to.owner_key, to.id);
      const wanted = transferFolderName(displayNameOf({ ...from, ownerKey: from.owner_key }));
      const folderId = randomUUID();
      const moved = await repo.transferPersonalSpace({
        from: from.owner_key,
        to: to.owner_key,
        toUserId: to.id,
        toRootId: root.id,
        createdBy: actor.id,
        folder: {
          id: folderId,
          names: (taken) => {
            let n = 0;
            while (taken(folderNameKey(numberedFolderName(wanted, n)))) n += 1;
            const name = numberedFolderName(wanted, n);
            return { name, nameKey: folderNameKey(name) };
          },
        },
      });
      const { folderName, ...counts } = moved;
      await events.emit('user.files_transferred', {
        actor: actor.ownerKey,
        target: `user:${from.owner_key}`,
        details: { to: to.owner_key, folderId, folderName, ...counts },
        ...context,
      });
      return { from: from.owner_key, to: to.owner_key, folderId, folderName, ...counts };
    },

    /** A user's own quota, or null (the default applies): what the files quota check asks. */
    quotaOf: (ownerKey: string) => repo.quotaOf(ownerKey),
  };
};

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
