import type { Role } from '@atrium/contracts';
import { ACCOUNT_DISABLED_MESSAGE, invalidCredentialsMessage } from '@atrium/contracts/texts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import type { AdminCredentials } from './admin-credentials';
import { hashPassword, verifyPassword } from './admin-credentials';
import type { LocalCredentialsRepository } from './local-credentials.repository';
import { userActor } from '../../auth/actor';
import type { SessionUser } from './sessions.service';
import type { LoginLimiter } from './login-limiter';
import type { UserRow, UsersRepository } from './users.repository';

export const ADMIN_OWNER_KEY = 'admin';

export { invalidCredentialsMessage };

const digest = (value: string) => createHash('sha256').update(value).digest();

export const toSessionUser = (row: UserRow): SessionUser => userActor(row);

/** Claims read from the identity provider's userinfo endpoint. */
export interface OidcProfile {
  issuer: string;
  subject: string;
  name?: string | undefined;
  nickname?: string | undefined;
  email?: string | undefined;
  /** The provider's `email_verified`: only a verified email joins a pending invitation (docs/PRODUCT.md#invitations). */
  emailVerified?: boolean | undefined;
  picture?: string | undefined;
  /**
   * Whether the provider's admin claim (`OIDC_ADMIN_CLAIM`) holds one of `OIDC_ADMIN_VALUES`; undefined when no
   * claim is configured (the stored role is then left alone).
   */
  admin?: boolean | undefined;
}

const MAX_OWNER_KEY_ATTEMPTS = 50;

/** A sign-in refused because an admin disabled the account (403 with a clear message; the OIDC callback's `account_disabled`). */
export class AccountDisabledError extends AppError {
  constructor() {
    super('FORBIDDEN', ACCOUNT_DISABLED_MESSAGE);
  }
}

const clean = (value: string | undefined, max = 300): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

/**
 * The owner key the `{userId}` paths use: nickname, else name, else
 * email (docs/PRODUCT.md#owner-key), else the subject. `admin` is reserved for the
 * built-in admin in any letter case.
 */
export function baseOwnerKey(profile: OidcProfile): string {
  const base = clean(profile.nickname, 100) ?? clean(profile.name, 100) ?? clean(profile.email, 100);
  const key = base ?? `user-${profile.subject.slice(0, 40)}`;
  return key.toLowerCase() === ADMIN_OWNER_KEY ? `${key}-user` : key;
}

/** base, base-2, base-3, … */
export const ownerKeyCandidate = (base: string, attempt: number) => (attempt === 0 ? base : `${base}-${attempt + 1}`);

export interface AuthServiceDeps {
  users: UsersRepository;
  admin: AdminCredentials;
  providerName: string;
  limiter: Pick<LoginLimiter, 'consume' | 'reset' | 'checkIp'>;
  /** Local accounts' passwords (docs/PRODUCT.md#invitations). */
  credentials: LocalCredentialsRepository;
}

export const createAuthService = ({ users, admin, providerName, limiter, credentials }: AuthServiceDeps) => {
  // A hash of a random password, checked when nobody has the username: an unknown user costs one scrypt like a
  // known one, so the time of the answer does not tell whether an account exists (docs/SECURITY.md#local-accounts).
  let dummyHash: Promise<string> | undefined;
  const invalid = () => new AppError('INVALID_CREDENTIALS', invalidCredentialsMessage(providerName));
  const service = {
    /**
     * Password sign-in on `POST /api/auth/login`: the built-in admin by its username, else a local account by its
     * username or email (any letter case). Exactly one scrypt either way; the same error for an unknown user and a
     * wrong password; limited per client IP and per username.
     */
    async loginPassword(username: string, password: string, ip: string): Promise<SessionUser> {
      dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
      const dummy = await dummyHash;
      if (timingSafeEqual(digest(username), digest(admin.username))) return service.loginAdmin(username, password, ip);
      await limiter.consume(ip, username);
      const account = await credentials.findByLogin(username);
      const passwordMatches = await verifyPassword(password, account?.password_hash ?? dummy);
      if (!account?.password_hash || !passwordMatches) throw invalid();
      await limiter.reset(ip, username);
      if (account.disabled_at !== null) throw new AccountDisabledError();
      await users.recordSignIn(account.id);
      return toSessionUser(account);
    },

    /** 429 before the body is read when the client IP is already over its sign-in limit. */
    checkLoginAllowed: (ip: string) => limiter.checkIp(ip),

    /**
     * Checks the built-in admin's credentials in constant time; returns the
     * admin user. Attempts are rate-limited per client IP and per username.
     */
    async loginAdmin(username: string, password: string, ip: string): Promise<SessionUser> {
      await limiter.consume(ip, username);
      const userMatches = timingSafeEqual(digest(username), digest(admin.username));
      const passwordMatches = await verifyPassword(password, admin.passwordHash);
      if (!userMatches || !passwordMatches)
        throw new AppError('INVALID_CREDENTIALS', invalidCredentialsMessage(providerName));
      await limiter.reset(ip, username);
      const existing = await users.findByOwnerKey(ADMIN_OWNER_KEY);
      if (existing) {
        if (existing.disabled_at !== null) throw new AccountDisabledError();
        if (existing.role !== 'admin') await users.update(existing.id, { role: 'admin' });
        await users.recordSignIn(existing.id);
        return toSessionUser({ ...existing, role: 'admin' });
      }
      const row = await users.insert({
        owner_key: ADMIN_OWNER_KEY,
        name: 'Admin',
        nickname: ADMIN_OWNER_KEY,
        email: null,
        picture: null,
        role: 'admin',
        oidc_issuer: null,
        oidc_subject: null,
      });
      await users.recordSignIn(row.id);
      return toSessionUser(row);
    },

    /**
     * The user for an OpenID Connect identity: found by issuer and subject
     * (profile fields refreshed, owner key kept), or created on first sign-in
     * with a unique owner key. `roleChange`: the identity provider's admin claim changed the stored role (or made a
     * new user an admin), for the audit log.
     */
    async loginOidc(
      profile: OidcProfile,
    ): Promise<{ user: SessionUser; roleChange?: { from: Role | null; to: Role } | undefined }> {
      const fields = {
        name: clean(profile.name),
        nickname: clean(profile.nickname),
        email: clean(profile.email),
        picture: clean(profile.picture, 2000),
      };
      // With an admin claim configured, the provider decides the role at every sign-in (docs/SECURITY.md).
      const mappedRole =
        profile.admin === undefined ? undefined : profile.admin ? ('admin' as const) : ('user' as const);
      const existing = await users.findByOidcIdentity(profile.issuer, profile.subject);
      if (existing) {
        if (existing.disabled_at !== null) throw new AccountDisabledError();
        const role = mappedRole ?? existing.role;
        await users.update(existing.id, { ...fields, role });
        await users.recordSignIn(existing.id);
        const user = toSessionUser({ ...existing, ...fields, role });
        return { user, roleChange: role === existing.role ? undefined : { from: existing.role, to: role } };
      }
      const base = baseOwnerKey(profile);
      for (let attempt = 0; attempt < MAX_OWNER_KEY_ATTEMPTS; attempt += 1) {
        const ownerKey = ownerKeyCandidate(base, attempt);
        if (await users.findByOwnerKey(ownerKey)) continue;
        try {
          const row = await users.insert({
            ...fields,
            owner_key: ownerKey,
            role: mappedRole ?? 'user',
            oidc_issuer: profile.issuer,
            oidc_subject: profile.subject,
          });
          await users.recordSignIn(row.id);
          return {
            user: toSessionUser(row),
            roleChange: row.role === 'admin' ? { from: null, to: 'admin' } : undefined,
          };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Another sign-in took this key (or this identity) at the same moment.
          const raced = await users.findByOidcIdentity(profile.issuer, profile.subject);
          if (raced) return { user: toSessionUser(raced) };
        }
      }
      throw new AppError('CONFLICT', 'Could not find a free user name for this account.');
    },

    /** True until the user's first sign-in has been greeted, in whichever browser that happens. */
    async isFirstLogin(userId: string): Promise<boolean> {
      const row = await users.findById(userId);
      return row !== undefined && row.first_login_completed_at === null;
    },

    completeFirstLogin: (userId: string) => users.completeFirstLogin(userId),

    /**
     * The check of the person's own password (a local account, or the built-in admin), counted like a sign-in on the
     * limiter; null when the account has no password here (the identity provider's accounts).
     */
    async ownPasswordCheck(user: Pick<SessionUser, 'id' | 'ownerKey'>) {
      const local = user.ownerKey === ADMIN_OWNER_KEY ? undefined : await credentials.findByUserId(user.id);
      const found =
        user.ownerKey === ADMIN_OWNER_KEY
          ? { username: admin.username, hash: admin.passwordHash }
          : local?.password_hash
            ? { username: local.username, hash: local.password_hash }
            : null;
      if (!found) return null;
      return async (password: string, ip: string) => {
        await limiter.consume(ip, found.username);
        const right = await verifyPassword(password, found.hash);
        if (right) await limiter.reset(ip, found.username);
        return right;
      };
    },

    /** Whether the user is a local account (docs/PRODUCT.md#invitations). */
    isLocal: async (userId: string) => (await credentials.findByUserId(userId)) !== undefined,
  };
  return service;
};

export type AuthService = ReturnType<typeof createAuthService>;
