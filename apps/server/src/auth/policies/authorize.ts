import type { AppError } from '../../errors';
import type { Actor } from '../actor';
import { allows, type ResourceAction, type ResourceRole } from './roles';

/**
 * Loads a resource and checks the actor against it in one call, the shape every `require…` of the policies
 * takes (after Immich's `requireAccess`): a resource that is missing and one the actor may not know of answer
 * the same error, so a caller cannot probe for what exists. `denied` may name a different error for an actor
 * who can see the resource but not do this to it (a viewer trying to delete: 403, not 404).
 */
export async function loadAuthorized<T>(
  load: () => Promise<T | undefined>,
  decide: (resource: T) => 'allowed' | 'hidden' | AppError,
  hidden: () => AppError,
): Promise<T> {
  const resource = await load();
  if (resource === undefined) throw hidden();
  const decision = decide(resource);
  if (decision === 'allowed') return resource;
  throw decision === 'hidden' ? hidden() : decision;
}

/**
 * `loadAuthorized` for a resource reached through a role (files, folders, workspaces): allowed when the actor's role
 * on it allows `action`; a role that only reads gets `refused(action)` (403); no role at all, the `hidden` error.
 */
export function loadWithRole<T>(
  load: () => Promise<T | undefined>,
  roleOf: (resource: T) => ResourceRole | null,
  action: ResourceAction,
  refused: (action: ResourceAction) => AppError,
  hidden: () => AppError,
): Promise<T> {
  return loadAuthorized(
    load,
    (resource) => {
      const role = roleOf(resource);
      if (allows(role, action)) return 'allowed';
      return allows(role, 'read') ? refused(action) : 'hidden';
    },
    hidden,
  );
}

/**
 * The `require…` of a resource loaded by id (folders, workspaces): `loadWithRole` with the actor's role from
 * `roleOf`, `refused(action)` for a role that only reads, `hidden()` for no role or no resource.
 */
export const requireById =
  <S>(
    roleOf: (actor: Actor, resource: S) => ResourceRole | null,
    refused: (action: ResourceAction) => AppError,
    hidden: () => AppError,
  ) =>
  <T extends S>(
    actor: Actor,
    id: string,
    action: ResourceAction,
    load: (id: string) => Promise<T | undefined>,
  ): Promise<T> =>
    loadWithRole(
      () => load(id),
      (resource) => roleOf(actor, resource),
      action,
      refused,
      hidden,
    );
