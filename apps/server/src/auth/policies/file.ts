import { AppError } from '../../errors';
import type { Actor } from '../actor';
import { loadWithRole } from './authorize';
import { LINK_MANAGE_ACTION } from './link';
import { allows, strongerRole, type ResourceAction, type ResourceRole } from './roles';

/**
 * What the file policy reads of a file (or of a space, for `{userId}` paths). The loader fills in the acting user's
 * membership role in the file's workspace and the strongest share that reaches them (on the file itself, or on a
 * folder above it, granted to them or to a workspace they are a member of), so the decision below stays pure.
 */
export interface FileSubject {
  /** Whose personal space the file is in (for a workspace file: who put it there; no access follows from it). */
  ownerKey: string;
  /** The workspace the file is in; null or absent: the personal space of `ownerKey`. */
  workspaceId?: string | null;
  /** The acting user's role in that workspace (null: not a member). */
  memberRole?: ResourceRole | null;
  /** The strongest share reaching the acting user (viewer or editor), if any. */
  shareRole?: ResourceRole | null;
}

/** The 403 for a `{userId}` path naming another user's space. */
export const OWN_FILES_ONLY = 'You can only access your own files.';

/**
 * The actor's role on a file: in a personal space its owner holds it as owner, and nobody else — admins included
 * (the admin role manages people, not content: the spec's admin uploads under its own owner key `admin` and has no
 * screen for anyone else's files; docs/PRODUCT.md#roles-and-permissions); in a workspace each member has their
 * membership role (admins none); a share adds its role, the stronger of the two counting. Link bearers and API keys
 * have none (a link's access is the link policy's).
 */
export function fileRole(actor: Actor, file: FileSubject): ResourceRole | null {
  if (actor.kind !== 'user') return null;
  const own: ResourceRole | null = file.workspaceId
    ? (file.memberRole ?? null)
    : actor.ownerKey === file.ownerKey
      ? 'owner'
      : null;
  return strongerRole(own, file.shareRole ?? null);
}

/**
 * Whether the actor reaches the file through their own spaces — their personal space or a
 * workspace they are a member of — and not only through a share (which shows it under "Shared with me").
 */
export const reachesInOwnSpaces = (actor: Actor, file: FileSubject): boolean =>
  fileRole(actor, { ...file, shareRole: null }) !== null;

/** Whether the actor may do `action` to the file. */
export const canFile = (actor: Actor, action: ResourceAction, file: FileSubject): boolean =>
  allows(fileRole(actor, file), action);

/**
 * A `{userId}` path (the spec's `/api/files/user/{userId}`, the upload's `?userId=`, a tus upload's owner) acts on
 * that user's personal space: the caller must be allowed `action` there — their own key only, admins included (the
 * spec's admin lists and uploads under its own key `admin`) — else 403 (the path names a user, whose existence is
 * no secret).
 */
export function requireActsFor(actor: Actor, ownerKey: string, action: ResourceAction): void {
  if (!canFile(actor, action, { ownerKey })) throw new AppError('FORBIDDEN', OWN_FILES_ONLY);
}

/** The 403 of an editor moving a file out of its space (they can see the file, so not a 404). */
export const MOVE_OUT_OWNERS_ONLY =
  'Only the owner of this space can move the file out of it. You can move it to another folder of the same space.';

/**
 * Moving a file out of its space (personal → elsewhere, workspace → elsewhere) takes it away from that space's
 * people, so it needs the source space's `manage` right: the owner of a personal space, an owner of a workspace
 * (docs/PRODUCT.md#workspaces-and-folders). Editors — members or share recipients — move only within the space:
 * 403 `MOVE_OUT_OWNERS_ONLY`. `file` carries the facts the loader read (membership and share roles).
 */
export function requireMoveOut(actor: Actor, file: FileSubject): void {
  if (!canFile(actor, 'manage', file)) throw new AppError('FORBIDDEN', MOVE_OUT_OWNERS_ONLY);
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
  return loadWithRole(
    load,
    (file) => fileRole(actor, file),
    action,
    () => new AppError('FORBIDDEN', 'You can only view this file.'),
    () => new AppError('FILE_NOT_FOUND'),
  );
}

/**
 * What a file's details (`GET /api/files/{id}/details`) show beyond the file itself, by the actor's role on it: who
 * has access (members, shares) and the active links only to who may share the file — owners and editors, who can
 * list its shares and links anyway — and the activity's share and link entries likewise. A viewer (member or share
 * recipient) sees the file, its location as they reach it, the versions' count, their own role and the rest of the
 * activity (uploads, renames, moves, version restores, trash).
 */
export function fileDetailsView(role: ResourceRole | null): {
  access: boolean;
  links: boolean;
  shareActivity: boolean;
} {
  const share = allows(role, 'share');
  return { access: share, links: allows(role, LINK_MANAGE_ACTION), shareActivity: share };
}
