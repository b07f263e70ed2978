import { TRASH_MESSAGES } from '@atrium/contracts';
import { AppError } from '../../errors';
import type { Actor } from '../actor';
import { loadAuthorized } from './authorize';
import { allows, type ResourceRole } from './roles';

/**
 * What the trash policy reads of a trashed item: its space (a personal space's owner key, or a workspace and the
 * acting user's membership role there).
 */
export type TrashSubject =
  { workspaceId: null; ownerKey: string } | { workspaceId: string; memberRole: ResourceRole | null };

/**
 * Whether the actor may see, restore and purge a space's trash: a personal space's owner only (admins included: the
 * trash of another person is theirs), a workspace's members who may delete in it (editors and owners; viewers no).
 * Shares give nothing here: while an item is in the trash its shares are suspended.
 */
export function canManageTrash(actor: Actor, subject: TrashSubject): boolean {
  if (actor.kind !== 'user') return false;
  if (subject.workspaceId === null) return subject.ownerKey === actor.ownerKey;
  return allows(subject.memberRole, 'delete');
}

/** Loads a trashed item and checks the actor may manage it; missing and hidden both answer 404 `NOT_FOUND`. */
export function requireTrashItem<T extends TrashSubject>(actor: Actor, load: () => Promise<T | undefined>): Promise<T> {
  return loadAuthorized(
    load,
    (item) => (canManageTrash(actor, item) ? 'allowed' : 'hidden'),
    () => new AppError('NOT_FOUND', TRASH_MESSAGES.notFound),
  );
}
