import { AppError } from '../../errors';
import type { Actor } from '../actor';
import { requireById } from './authorize';
import { allows, strongerRole, type ResourceAction, type ResourceRole } from './roles';
import { workspaceRole } from './workspace';

/**
 * What the folder policy reads of a folder: its space. A personal folder has the owner key of its space's owner; a
 * workspace folder its workspace and the acting user's membership role there (null: not a member). Either may carry
 * the strongest share reaching the acting user (on the folder or one above it, to them or to a workspace of theirs).
 */
export type FolderSubject = (
  { workspaceId: null; ownerKey: string } | { workspaceId: string; ownerKey: null; memberRole: ResourceRole | null }
) & { shareRole?: ResourceRole | null };

/** The 403 of an actor who may see a folder but not change it. */
export const FOLDER_VIEW_ONLY = 'You can only view this folder.';

/**
 * The actor's role on a folder: a personal folder belongs to its space's owner only (admins included: they have no
 * way into anyone's folders); a workspace folder gives each member their role; a share adds its role, the stronger
 * of the two counting.
 */
export function folderRole(actor: Actor, folder: FolderSubject): ResourceRole | null {
  if (actor.kind !== 'user') return null;
  const own =
    folder.workspaceId === null ? (actor.ownerKey === folder.ownerKey ? 'owner' : null) : workspaceRole(actor, folder);
  return strongerRole(own, folder.shareRole ?? null);
}

/** Whether the actor may do `action` to the folder (`write`: create in it, rename or move it). */
export const canFolder = (actor: Actor, action: ResourceAction, folder: FolderSubject): boolean =>
  allows(folderRole(actor, folder), action);

/**
 * Loads folder `id` as seen by the actor and checks `action`. A missing folder and one the actor has no role on
 * both answer 404 `FOLDER_NOT_FOUND`; an actor who may read it but not do this gets 403.
 */
export const requireFolder = requireById(
  folderRole,
  () => new AppError('FORBIDDEN', FOLDER_VIEW_ONLY),
  () => new AppError('FOLDER_NOT_FOUND'),
);
