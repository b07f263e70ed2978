import { LINK_TEXTS } from '@atrium/contracts/texts';
import { AppError } from '../../errors';
import type { Actor } from '../actor';
import { loadAuthorized } from './authorize';
import type { ResourceAction } from './roles';

/** What the link policy reads of a public link. */
export interface LinkSubject {
  id: string;
  kind: 'file' | 'folder';
  expiresAt: string | null;
  revokedAt: string | null;
  hasPassword: boolean;
  maxDownloads: number | null;
  downloads: number;
  /** A folder's upload-only "file drop": its bearer may upload, never list or download. */
  allowUpload: boolean;
}

/**
 * What a link's bearer may try: `view` its public page (metadata; allowed while locked, so the page can show the
 * password form), `read` (list the folder, download a file, the zip), `resume` (a later range of a file: `read`, but
 * allowed on a used-up link, since the bytes of the downloads already counted decide — `links.service.ts`) and
 * `upload` (file-drop links).
 */
export type LinkAction = 'view' | 'read' | 'resume' | 'upload';

/**
 * Creating, listing and revoking a file's or folder's links needs this action on it (`roles.ts`: owner and editor;
 * viewers may not hand out what they can only read). The file and folder policies decide it.
 */
export const LINK_MANAGE_ACTION: ResourceAction = 'share';

export type LinkState = 'active' | 'revoked' | 'expired' | 'usedUp';

/** Whether a link can be used at `now`: revoked wins, then expiry, then the download limit. */
export function linkState(link: LinkSubject, now: Date): LinkState {
  if (link.revokedAt !== null) return 'revoked';
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime()) return 'expired';
  if (!link.allowUpload && link.maxDownloads !== null && link.downloads >= link.maxDownloads) return 'usedUp';
  return 'active';
}

/**
 * The decision for `actor` doing `action` through `link`. Only the link's own bearer acts through it (a signed-in
 * user's role on the resource gives them nothing here: they use the private routes). Unknown and revoked links are
 * the same 404; an expired or used-up link is 410, whoever asks; a protected link answers 401 `LINK_LOCKED` to
 * everything but `view` until unlocked; a file drop refuses `read` and any other link refuses `upload` (403).
 */
export function linkDecision(actor: Actor, link: LinkSubject, action: LinkAction, now: Date): 'allowed' | AppError {
  if (actor.kind !== 'link' || actor.linkId !== link.id) return new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
  const state = linkState(link, now);
  if (state === 'revoked') return new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
  if (state === 'expired') return new AppError('LINK_EXPIRED', LINK_TEXTS.expired);
  if (state === 'usedUp' && action !== 'resume') return new AppError('LINK_USED_UP', LINK_TEXTS.usedUp);
  if (action === 'view') return 'allowed';
  if (link.hasPassword && actor.unlocked !== true) return new AppError('LINK_LOCKED', LINK_TEXTS.locked);
  if ((action === 'read' || action === 'resume') && link.allowUpload)
    return new AppError('FORBIDDEN', LINK_TEXTS.uploadOnly);
  if (action === 'upload' && !(link.allowUpload && link.kind === 'folder')) {
    return new AppError('FORBIDDEN', LINK_TEXTS.notUploadLink);
  }
  return 'allowed';
}

/** Whether `actor` may do `action` through `link` at `now`. */
export const canLink = (actor: Actor, link: LinkSubject, action: LinkAction, now: Date): boolean =>
  linkDecision(actor, link, action, now) === 'allowed';

/** Loads a link and checks `action` for its bearer in one call (missing: 404 `LINK_NOT_FOUND`). */
export function requireLink<T extends LinkSubject>(
  actor: Actor,
  action: LinkAction,
  now: Date,
  load: () => Promise<T | undefined>,
): Promise<T> {
  return loadAuthorized(
    load,
    (link) => linkDecision(actor, link, action, now),
    () => new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked),
  );
}
