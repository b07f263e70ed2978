import type { Role } from '@atrium/contracts';
import type { SessionEndReason } from '@atrium/contracts/texts';

/**
 * Who is acting on a request, as policies see it. One type for every kind of caller, outside any module,
 * so plugins, policies and services can all import it.
 * - `user`: a signed-in person (session cookie).
 * - `link`: the bearer of a public link (docs/PRODUCT.md#public-links), acting only on the link's resource.
 * - `apiKey`: a client presenting an admin-created API key (the AI compatibility routes).
 */
export type Actor = UserActor | LinkActor | ApiKeyActor;

export interface UserActor {
  kind: 'user';
  id: string;
  ownerKey: string;
  role: Role;
  name: string | null;
  nickname: string | null;
  email: string | null;
  picture: string | null;
}

export interface LinkActor {
  kind: 'link';
  linkId: string;
  /** True when the link has no password or the request carries its unlock cookie (`modules/links/unlock-cookie.ts`). */
  unlocked?: boolean;
}

export interface ApiKeyActor {
  kind: 'apiKey';
  keyId: string;
}

/** Whether the actor is a signed-in admin. Role checks live in `auth/` (this file, the policies, the access plugin). */
export const isAdmin = (actor: Actor): boolean => actor.kind === 'user' && actor.role === 'admin';

/** The signed-in actor of a `users` row (or of any row carrying its columns, such as a session joined to it). */
export const userActor = (row: {
  id: string;
  owner_key: string;
  role: Role;
  name: string | null;
  nickname: string | null;
  email: string | null;
  picture: string | null;
}): UserActor => ({
  kind: 'user',
  id: row.id,
  ownerKey: row.owner_key,
  role: row.role,
  name: row.name,
  nickname: row.nickname,
  email: row.email,
  picture: row.picture,
});

/** What the session plugin needs of the session store (modules/auth/sessions.service.ts implements it). */
export interface SessionStore {
  /** The signed-in user of a cookie token, or null (unknown, expired or idle too long). */
  resolve(token: string): Promise<UserActor | null>;
  /** `resolve`, possibly answered from a short-lived memory of verified sessions (routes with `session: 'cached'`). */
  resolveCached(token: string): Promise<UserActor | null>;
  /** Starts a session; returns its cookie token. */
  create(userId: string, meta: { userAgent?: string | undefined; ip?: string | undefined }): Promise<string>;
  destroy(token: string): Promise<void>;
  /** Why a cookie token (or none) has no session: the 401's reason (docs/PRODUCT.md#session-end-reasons). */
  endReason(token: string | undefined): Promise<SessionEndReason>;
}

/** A person as others see them named: these fields of a user row, whatever a query called them. */
export interface NamedPerson {
  name: string | null;
  nickname: string | null;
  ownerKey: string;
}

/**
 * How a person is named to others — in notices, shares, the admin screens: their name, else their nickname, else
 * their owner key. One rule; a person not found (no owner key) has no name.
 */
export function displayNameOf(person: NamedPerson): string;
export function displayNameOf(person: { [K in keyof NamedPerson]?: string | null | undefined }): string | null;
export function displayNameOf(person: { [K in keyof NamedPerson]?: string | null | undefined }): string | null {
  return person.name ?? person.nickname ?? person.ownerKey ?? null;
}
