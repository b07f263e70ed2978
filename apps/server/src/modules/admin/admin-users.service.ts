import { ADMIN_USER_MESSAGES, type AdminUser, type AdminUserPatch, type AdminUsersQuery } from '@atrium/contracts';
import { requireAdmin } from '../../auth/policies/admin';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { AuditContext, AuditRecorder } from '../audit/audit-recorder';
import { ADMIN_OWNER_KEY } from '../auth/auth.service';
import type { AdminUserRow, AdminUsersRepository } from './admin-users.repository';

export interface AdminUsersServiceDeps {
  repo: AdminUsersRepository;
  sessions: {
    /** Ends the user's sessions (all, or all but `exceptSessionId`) and their live streams; returns how many. */
    destroyAllForUser(userId: string, exceptSessionId?: string): Promise<number>;
  };
  audit: AuditRecorder;
  clock: Clock;
  /** `USER_QUOTA_BYTES`: the quota of a user without one of their own. */
  defaultQuotaBytes: number;
}

const encodeCursor = (ownerKey: string) => Buffer.from(ownerKey).toString('base64url');
const decodeCursor = (cursor: string) => {
  const value = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!value || encodeCursor(value) !== cursor)
    throw new AppError('BAD_REQUEST', 'The cursor is not valid. Start again from the first page.');
  return value;
};

/** The users screen: list, change role / status / quota, sign a user out everywhere. Admins only. */
export const createAdminUsersService = ({ repo, sessions, audit, clock, defaultQuotaBytes }: AdminUsersServiceDeps) => {
  const present = (row: AdminUserRow): AdminUser => ({
    userId: row.owner_key,
    id: row.id,
    name: row.name ?? row.nickname,
    email: row.email,
    role: row.role,
    disabled: row.disabled_at !== null,
    builtIn: row.owner_key === ADMIN_OWNER_KEY,
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
    async update(actor: UserActor, ownerKey: string, patch: AdminUserPatch, context: AuditContext): Promise<AdminUser> {
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
          await audit.record({ ...entry, action: 'user.disabled', details: { sessionsEnded: ended } });
        } else {
          await audit.record({ ...entry, action: 'user.enabled' });
        }
      }
      if (changes.role !== undefined)
        await audit.record({ ...entry, action: 'user.role_changed', details: { from: row.role, to: changes.role } });
      if (changes.quota_bytes !== undefined)
        await audit.record({
          ...entry,
          action: 'user.quota_changed',
          details: { from: row.quota_bytes, to: changes.quota_bytes },
        });
      return present(await find(ownerKey));
    },

    /** Signs the user out everywhere (for the acting admin: everywhere but here). Returns how many sessions ended. */
    async revokeSessions(
      actor: UserActor,
      ownerKey: string,
      currentSessionId: string | undefined,
      context: AuditContext,
    ): Promise<number> {
      requireAdmin(actor, 'users');
      const row = await find(ownerKey);
      const revoked = await sessions.destroyAllForUser(row.id, row.id === actor.id ? currentSessionId : undefined);
      await audit.record({
        action: 'user.sessions_revoked',
        actor: actor.ownerKey,
        target: `user:${row.owner_key}`,
        details: { revoked },
        ...context,
      });
      return revoked;
    },

    /** A user's own quota, or null (the default applies): what the files quota check asks. */
    quotaOf: (ownerKey: string) => repo.quotaOf(ownerKey),
  };
};

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
