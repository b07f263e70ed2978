import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CreateLocalUserRequest, PublicPasswordReset, ResetLinkResponse, Role } from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import type { UserActor } from '../../auth/actor';
import type { RequestContext } from '../../lib/http/request-context';
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords';
import { iso, type Clock } from '../../lib/time';
import type { LocalCredentialsRepository, UsersRepository } from '../auth';
import { ADMIN_OWNER_KEY } from '../auth';
import type { AccountsRepository } from './accounts.repository';

export const DAY_MS = 86_400_000;
/** A reset link someone asked for by email is valid for an hour; one an admin hands over, as long as an invitation. */
const SELF_RESET_MS = 3_600_000;

/** A 192-bit token (base64url) and the SHA-256 (hex) that is stored instead of it. */
export const newToken = () => {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashToken(token) };
};
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The stored hash equals the token's, compared in constant time. */
export const sameHash = (stored: string, token: string) =>
  timingSafeEqual(Buffer.from(stored, 'hex'), Buffer.from(hashToken(token), 'hex'));

export interface LocalAccountsServiceDeps {
  repo: AccountsRepository;
  credentials: LocalCredentialsRepository;
  users: UsersRepository;
  clock: Clock;
  events: EventEmitter;
  ttlDays: number;
  /** `PUBLIC_URL`: the absolute links the mail module sends. */
  publicUrl: string;
  adminUsername: string;
  /** Ends the user's sessions but `exceptSessionId`; answers how many ended. */
  endSessions(userId: string, exceptSessionId?: string): Promise<number>;
  /** Counts a current-password check like a sign-in attempt (429 when over the limit). */
  limitPasswordChecks(ip: string, username: string): Promise<void>;
}

/**
 * Local accounts (docs/PRODUCT.md#invitations): created by an admin (with a link to set the password) or by an
 * accepted invitation (`createLocalUser`), reset links, "Forgot password?", password changes.
 */
export function createLocalAccountsService(deps: LocalAccountsServiceDeps) {
  const { repo, credentials, users, clock, events } = deps;
  const now = () => iso(clock.now());
  const absolute = (path: string) => new URL(path, deps.publicUrl).toString();

  const requireStrong = (password: string) => {
    const problem = passwordProblem(password);
    if (problem) throw new AppError('WEAK_PASSWORD', problem);
  };

  /** A free owner key from a username (`name`, `name-2`, …; `admin` is the built-in admin's). */
  async function freeOwnerKey(username: string) {
    const base = username.toLowerCase() === ADMIN_OWNER_KEY ? `${username}-user` : username;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const key = attempt === 0 ? base : `${base}-${attempt + 1}`;
      if (!(await repo.ownerKeyTaken(key))) return key;
    }
    throw new AppError('CONFLICT', ACCOUNT_TEXTS.usernameTaken);
  }

  async function requireFreeUsername(username: string) {
    if (
      username.toLowerCase() === deps.adminUsername.toLowerCase() ||
      username.toLowerCase() === ADMIN_OWNER_KEY ||
      (await credentials.usernameTaken(username))
    )
      throw new AppError('USERNAME_TAKEN', ACCOUNT_TEXTS.usernameTaken);
  }

  /**
   * Creates a user with local credentials (a password, or none until the reset link is used), both rows or neither:
   * of two people taking one username at the same moment, one wins and the other gets 409.
   */
  async function createLocalUser(fields: {
    username: string;
    name: string | null;
    email: string | null;
    role: Role;
    passwordHash: string | null;
  }) {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = await users.insertLocal(
        {
          owner_key: await freeOwnerKey(fields.username),
          name: fields.name,
          nickname: fields.username,
          email: fields.email,
          picture: null,
          role: fields.role,
          oidc_issuer: null,
          oidc_subject: null,
        },
        { username: fields.username, passwordHash: fields.passwordHash },
      );
      if (row === 'username-taken') throw new AppError('USERNAME_TAKEN', ACCOUNT_TEXTS.usernameTaken);
      if (row !== 'owner-key-taken') return row;
    }
    throw new AppError('USERNAME_TAKEN', ACCOUNT_TEXTS.usernameTaken);
  }

  async function issueResetFor(userId: string, lifetimeMs: number): Promise<ResetLinkResponse & { token: string }> {
    const { token, hash } = newToken();
    const expiresAt = iso(new Date(clock.now().getTime() + lifetimeMs));
    await repo.insertReset({ token_hash: hash, user_id: userId, created_at: now(), expires_at: expiresAt });
    return { token, url: `/reset-password/${token}`, expiresAt };
  }

  async function usableReset(token: string) {
    const row = await repo.findReset(hashToken(token));
    if (!row || !sameHash(row.token_hash, token) || row.used_at !== null || row.expires_at <= now())
      throw new AppError('RESET_LINK_GONE', ACCOUNT_TEXTS.resetLinkGone);
    return row;
  }

  return {
    requireStrong,
    requireFreeUsername,
    createLocalUser,

    /** An admin creates a local account; the answer is the link to set its password, to hand over. */
    async createLocal(actor: UserActor, body: CreateLocalUserRequest, context: RequestContext) {
      await requireFreeUsername(body.username);
      const user = await createLocalUser({
        username: body.username,
        name: body.name || null,
        email: body.email ?? null,
        role: body.role,
        passwordHash: null,
      });
      const link = await issueResetFor(user.id, deps.ttlDays * DAY_MS);
      await events.emit('account.created', {
        actor: actor.ownerKey,
        target: `user:${user.owner_key}`,
        details: { via: 'admin', username: body.username, role: body.role },
        ...context,
      });
      return { id: user.id, ownerKey: user.owner_key, url: link.url, expiresAt: link.expiresAt };
    },

    /** An admin's reset link for a local account (404 for anyone else). */
    async issueReset(actor: UserActor, ownerKey: string, context: RequestContext): Promise<ResetLinkResponse> {
      const user = await users.findByOwnerKey(ownerKey);
      const local = user && (await credentials.findByUserId(user.id));
      if (!user || !local) throw new AppError('USER_NOT_FOUND', 'No local account has this user id.');
      const { url, expiresAt } = await issueResetFor(user.id, deps.ttlDays * DAY_MS);
      await events.emit('password.reset', {
        actor: actor.ownerKey,
        target: `user:${user.owner_key}`,
        details: { step: 'link_issued' },
        ...context,
      });
      return { url, expiresAt };
    },

    /** "Forgot password?": a link by email when a local account has this address; the caller answers the same either way. */
    async requestReset(email: string): Promise<void> {
      const account = await credentials.findByLogin(email);
      if (!account?.email || account.email.toLowerCase() !== email.toLowerCase() || account.disabled_at !== null)
        return;
      const link = await issueResetFor(account.id, SELF_RESET_MS);
      await events.emit('password.reset.issued', {
        userId: account.id,
        email: account.email,
        name: account.name ?? account.username,
        url: absolute(link.url),
        expiresAt: link.expiresAt,
      });
    },

    async resetInfo(token: string): Promise<PublicPasswordReset> {
      const row = await usableReset(token);
      const user = await users.findById(row.user_id);
      const local = await credentials.findByUserId(row.user_id);
      if (!user || !local) throw new AppError('RESET_LINK_GONE', ACCOUNT_TEXTS.resetLinkGone);
      return { name: user.name ?? local.username, username: local.username, expiresAt: row.expires_at };
    },

    /** Sets a new password through a reset link (single use) and ends every session of the account. */
    async reset(token: string, password: string, context: RequestContext) {
      const row = await usableReset(token);
      requireStrong(password);
      const passwordHash = await hashPassword(password);
      if (!(await repo.claimReset(row.token_hash, now())))
        throw new AppError('RESET_LINK_GONE', ACCOUNT_TEXTS.resetLinkGone);
      await credentials.setPassword(row.user_id, passwordHash, now());
      await deps.endSessions(row.user_id);
      const user = await users.findById(row.user_id);
      await events.emit('password.reset', {
        actor: user?.owner_key ?? null,
        target: user ? `user:${user.owner_key}` : null,
        details: { step: 'password_set' },
        ...context,
      });
      return { ok: true as const };
    },

    /** Changes the signed-in person's password; their other sessions end. */
    async changePassword(
      actor: UserActor,
      body: { currentPassword: string; newPassword: string },
      currentSessionId: string | undefined,
      context: RequestContext & { ip: string },
    ) {
      const local = await credentials.findByUserId(actor.id);
      if (!local) throw new AppError('CONFLICT', ACCOUNT_TEXTS.notLocalAccount);
      await deps.limitPasswordChecks(context.ip, local.username);
      if (!local.password_hash || !(await verifyPassword(body.currentPassword, local.password_hash)))
        throw new AppError('FORBIDDEN', ACCOUNT_TEXTS.wrongCurrentPassword);
      requireStrong(body.newPassword);
      await credentials.setPassword(actor.id, await hashPassword(body.newPassword), now());
      const ended = await deps.endSessions(actor.id, currentSessionId);
      await events.emit('password.changed', {
        actor: actor.ownerKey,
        target: `user:${actor.ownerKey}`,
        details: { otherSessionsEnded: ended },
        ...context,
      });
      return { ok: true as const, otherSessionsEnded: ended };
    },
  };
}

export type LocalAccountsService = ReturnType<typeof createLocalAccountsService>;
