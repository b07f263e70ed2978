import { NOTIFICATION_TEXTS } from '@atrium/contracts';
import { AppError } from '../../errors';
import { isAdmin, type Actor } from '../actor';

/**
 * What only admins may do, each with the message a non-admin gets (403). Routes declare them with
 * `config: adminOnly('apiKeys')` — the access plugin refuses everyone else before the body is read — and
 * services that must hold the rule themselves call `requireAdmin` with the same capability.
 */
export const ADMIN_CAPABILITIES = {
  any: 'Only admins can do that.',
  apiKeys: 'Only admins can manage API keys.',
  contactMessages: 'Only admins can read contact messages.',
  notifications: NOTIFICATION_TEXTS.adminOnly,
  users: 'Only admins can manage users.',
  audit: 'Only admins can read the audit log.',
  settings: 'Only admins can change instance settings.',
  system: 'Only admins can see the system status.',
} as const;

export type AdminCapability = keyof typeof ADMIN_CAPABILITIES;

/** A route's access declaration for an admin-only capability. */
export const adminOnly = (capability: AdminCapability) =>
  ({ access: 'admin', forbiddenMessage: ADMIN_CAPABILITIES[capability] }) as const;

/** Throws 403 with the capability's message unless the actor is an admin. */
export function requireAdmin(actor: Actor, capability: AdminCapability): void {
  if (!isAdmin(actor)) throw new AppError('FORBIDDEN', ADMIN_CAPABILITIES[capability]);
}

/**
 * Whether a stored account may still act as an admin (admin role, not disabled): for work done later on its behalf,
 * such as a scheduled notification falling due, when no request (and so no session check) is in between.
 */
export const isActiveAdminAccount = (account: { role: string; disabledAt: string | null }): boolean =>
  account.role === 'admin' && account.disabledAt === null;

/** Whether `/readyz` shows each dependency's details (admins) or only the overall state. */
export const canSeeSystemDetails = (actor: Actor | null): boolean => actor !== null && isAdmin(actor);
