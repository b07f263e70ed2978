import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import type { AdminCredentials } from './admin-credentials';
import { verifyPassword } from './admin-credentials';
import type { SessionUser } from './sessions.service';
import type { UserRow, UsersRepository } from './users.repository';

export const ADMIN_OWNER_KEY = 'admin';

export const invalidCredentialsMessage = (providerName: string) =>
  `Invalid credentials. Please try again or continue with ${providerName}`;

const digest = (value: string) => createHash('sha256').update(value).digest();

export const toSessionUser = (row: UserRow): SessionUser => ({
  id: row.id,
  ownerKey: row.owner_key,
  role: row.role,
  name: row.name,
  nickname: row.nickname,
  email: row.email,
  picture: row.picture,
});

export interface AuthServiceDeps {
  users: UsersRepository;
  admin: AdminCredentials;
  providerName: string;
}

export const createAuthService = ({ users, admin, providerName }: AuthServiceDeps) => ({
  /** Checks the built-in admin's credentials in constant time; returns the admin user. */
  async loginAdmin(username: string, password: string): Promise<SessionUser> {
    const userMatches = timingSafeEqual(digest(username), digest(admin.username));
    const passwordMatches = await verifyPassword(password, admin.passwordHash);
    if (!userMatches || !passwordMatches)
      throw new AppError('INVALID_CREDENTIALS', invalidCredentialsMessage(providerName));
    const existing = await users.findByOwnerKey(ADMIN_OWNER_KEY);
    if (existing) {
      if (existing.role !== 'admin') await users.update(existing.id, { role: 'admin' });
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
    return toSessionUser(row);
  },
});

export type AuthService = ReturnType<typeof createAuthService>;
