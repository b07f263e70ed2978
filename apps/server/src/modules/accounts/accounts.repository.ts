import { sql } from 'kysely';
import type { Db } from '../../db';
import type { InvitationsTable, PasswordResetsTable } from '../../db/schema/accounts';
import type { MemberRole } from '@atrium/contracts';

export type InvitationRow = Omit<InvitationsTable, 'for_workspace'> & { for_workspace: number };
export type PendingRow = InvitationRow & { inviter_name: string | null; inviter_key: string | null };
export type ResetRow = PasswordResetsTable;

const SETTING_WHO = 'invitations.whoMayInvite';
const SETTING_DOMAINS = 'invitations.signUpDomains';

/** All SQL of invitations, password reset links and their settings (docs/PRODUCT.md#invitations). */
export const createAccountsRepository = (db: Db) => ({
  async insertInvitation(row: Omit<InvitationRow, 'accepted_at' | 'revoked_at' | 'accepted_user_id'>): Promise<void> {
    await db
      .insertInto('invitations')
      .values({ ...row, accepted_at: null, revoked_at: null, accepted_user_id: null })
      .execute();
  },

  findInvitation: (id: string) =>
    db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
      InvitationRow | undefined
    >,

  findInvitationByHash: (tokenHash: string) =>
    db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst() as Promise<
      InvitationRow | undefined
    >,

  /** Pending (not accepted, not revoked) invitations of a workspace, or of the instance (`null`), newest first. */
  pending: (workspaceId: string | null) =>
    db
      .selectFrom('invitations')
      .leftJoin('users', 'users.id', 'invitations.invited_by')
      .selectAll('invitations')
      .select(['users.name as inviter_name', 'users.owner_key as inviter_key'])
      .where('invitations.accepted_at', 'is', null)
      .where('invitations.revoked_at', 'is', null)
      .$call((q) =>
        workspaceId === null
          ? q.where('invitations.for_workspace', '=', 0)
          : q.where('invitations.workspace_id', '=', workspaceId),
      )
      .orderBy('invitations.created_at', 'desc')
      .limit(500)
      .execute() as Promise<PendingRow[]>,

  /** Pending, unexpired invitations for `email` (lower case). */
  pendingFor: (email: string, now: string) =>
    db
      .selectFrom('invitations')
      .selectAll()
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute() as Promise<InvitationRow[]>,

  async revoke(id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async renew(id: string, tokenHash: string, expiresAt: string): Promise<boolean> {
    const result = await db
      .updateTable('invitations')
      .set({ token_hash: tokenHash, expires_at: expiresAt })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Marks the invitation used, once: false when someone else used (or revoked) it first. */
  async claim(id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('invitations')
      .set({ accepted_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async unclaim(id: string): Promise<void> {
    await db.updateTable('invitations').set({ accepted_at: null }).where('id', '=', id).execute();
  },

  async setAcceptedUser(id: string, userId: string): Promise<void> {
    await db.updateTable('invitations').set({ accepted_user_id: userId }).where('id', '=', id).execute();
  },

  workspaceName: async (id: string) =>
    (await db.selectFrom('workspaces').select('name').where('id', '=', id).executeTakeFirst())?.name,

  inviterName: async (id: string | null) =>
    id === null
      ? undefined
      : await db.selectFrom('users').select(['name', 'owner_key']).where('id', '=', id).executeTakeFirst(),

  /** Adds `userId` to the workspace (a member at once: they accepted by taking the invitation); keeps a stronger role. */
  async addMember(workspaceId: string, userId: string, role: MemberRole, addedBy: string | null, now: string) {
    const existing = await db
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) return false;
    await db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role, added_by: addedBy, added_at: now, opened_at: now })
      .execute();
    return true;
  },

  /** Whether any user has this email address (any letter case). */
  emailTaken: async (email: string) =>
    (await db
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst()) !== undefined,

  usersWithEmail: (email: string) =>
    db.selectFrom('users').select(['id', 'owner_key']).where('email', '=', email).execute(),

  ownerKeyTaken: async (ownerKey: string) =>
    (await db.selectFrom('users').select('id').where('owner_key', '=', ownerKey).executeTakeFirst()) !== undefined,

  async insertReset(row: Omit<ResetRow, 'used_at'>): Promise<void> {
    await db
      .insertInto('password_resets')
      .values({ ...row, used_at: null })
      .execute();
  },

  findReset: (tokenHash: string) =>
    db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),

  async claimReset(tokenHash: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async settings(): Promise<{ whoMayInvite: string | undefined; signUpDomains: string | undefined }> {
    const rows = await db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', [SETTING_WHO, SETTING_DOMAINS])
      .execute();
    const of = (key: string) => rows.find((row) => row.key === key)?.value;
    return { whoMayInvite: of(SETTING_WHO), signUpDomains: of(SETTING_DOMAINS) };
  },

  async setSetting(key: 'whoMayInvite' | 'signUpDomains', value: string, by: string, now: string) {
    const stored = key === 'whoMayInvite' ? SETTING_WHO : SETTING_DOMAINS;
    await db
      .insertInto('settings')
      .values({ key: stored, value, updated_by: by, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: by, updated_at: now }))
      .execute();
  },
});

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
