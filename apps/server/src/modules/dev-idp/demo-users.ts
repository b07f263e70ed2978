import { createHash, timingSafeEqual } from 'node:crypto';

export interface DemoUser {
  /** The OpenID subject (stable). */
  sub: string;
  username: string;
  password: string;
  name: string;
  nickname?: string;
  email: string;
  /** The `groups` claim (the admin role mapping: `OIDC_ADMIN_CLAIM=groups`, `OIDC_ADMIN_VALUES=atrium-admins`). */
  groups?: string[];
}

/**
 * The embedded development provider's accounts (documented in the README).
 * Development only: the provider is off in production unless DEV_OIDC_PROVIDER=true.
 */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    sub: 'demo-alice',
    username: 'alice',
    password: 'wonderland',
    name: 'Alice Martin',
    nickname: 'alice',
    email: 'alice@example.com',
  },
  {
    sub: 'demo-bob',
    username: 'bob',
    password: 'builder',
    name: 'Bob Stone',
    nickname: 'bob',
    email: 'bob@example.com',
  },
  // No nickname: her owner key falls back to her name (docs/PRODUCT.md#owner-key).
  { sub: 'demo-carol', username: 'carol', password: 'singer', name: 'Carol Diaz', email: 'carol@example.com' },
  // In the admin group: an admin at each sign-in through the role mapping (README, "Admins from the identity provider").
  {
    sub: 'demo-dave',
    username: 'dave',
    password: 'director',
    name: 'Dave Director',
    nickname: 'dave',
    email: 'dave@example.com',
    groups: ['atrium-admins'],
  },
];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The demo user with these credentials, compared in constant time, or undefined. */
export function checkDemoUser(username: string, password: string): DemoUser | undefined {
  let found: DemoUser | undefined;
  for (const user of DEMO_USERS) {
    const ok =
      timingSafeEqual(digest(username.trim().toLowerCase()), digest(user.username)) &&
      timingSafeEqual(digest(password), digest(user.password));
    if (ok) found = user;
  }
  return found;
}

export const findDemoUser = (sub: string) => DEMO_USERS.find((user) => user.sub === sub);

/** Claims as a real provider's userinfo would return them; the picture is served by the provider itself. */
export const demoClaims = (user: DemoUser, issuer: string) => ({
  sub: user.sub,
  name: user.name,
  ...(user.nickname ? { nickname: user.nickname } : {}),
  email: user.email,
  email_verified: true,
  picture: `${issuer}/assets/avatar/${user.username}.svg`,
  groups: user.groups ?? [],
});
