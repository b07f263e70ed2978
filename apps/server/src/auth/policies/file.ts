import { AppError } from '../../errors';
import { isAdmin, type Actor } from '../actor';
import { loadAuthorized } from './authorize';
import { allows, type ResourceAction, type ResourceRole } from './roles';

/** What the file policy reads of a file (or of a space, for `{userId}` paths): whose personal space it is in. */
export interface FileSubject {
  ownerKey: string;
}

/** The 403 for a `{userId}` path naming another user's space. */
export const OWN_FILES_ONLY = 'You can only access your own files.';

/**
 * The actor's role on a file. Today every file is in its owner's personal space: the owner holds it as owner,
 * and so does an admin (the spec's admin acts on anyone's files); nobody else has a role. Link bearers and API keys
 * have none. Workspaces and shares (issue 15) add their roles here, and every caller follows.
 */
export function fileRole(actor: Actor, file: FileSubject): ResourceRole | null {
  if (actor.kind !== 'user') return null;
  if (actor.ownerKey === file.ownerKey || isAdmin(actor)) return 'owner';
  return null;
}

/** Whether the actor may do `action` to the file. */
export const canFile = (actor: Actor, action: ResourceAction, file: FileSubject): boolean =>
  allows(fileRole(actor, file), action);

/**
 * A `{userId}` path (the spec's `/api/files/user/{userId}`, the upload's `?userId=`, a tus upload's owner) acts on
 * that user's personal space: the caller must be allowed `action` there, else 403 (the path names a user, whose
 * existence is no secret).
 */
export function requireActsFor(actor: Actor, ownerKey: string, action: ResourceAction): void {
  if (!canFile(actor, action, { ownerKey })) throw new AppError('FORBIDDEN', OWN_FILES_ONLY);
}

/**
 * Loads a file and checks that the actor may do `action` to it. A missing file and one the actor has no role on
 * both answer 404 `FILE_NOT_FOUND`; an actor who may read the file but not do this gets 403.
 */
export function requireFile<T extends FileSubject>(
  actor: Actor,
  action: ResourceAction,
  load: () => Promise<T | undefined>,
): Promise<T> {
  return loadAuthorized(
    load,
    (file) => {
      const role = fileRole(actor, file);
      if (allows(role, action)) return 'allowed';
      return allows(role, 'read') ? new AppError('FORBIDDEN', 'You can only view this file.') : 'hidden';
    },
    () => new AppError('FILE_NOT_FOUND'),
  );
}
