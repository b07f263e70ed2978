import { AppError } from '../../errors';

/** A live WebDAV write lock that reaches something being changed, with what the 423 answer names. */
export interface ReachingLock {
  /** The locked file or folder (the lock may sit above the changed item, or below a changed folder). */
  resourceId: string;
  resourceKind: 'file' | 'folder';
  /** Its name, for the message. */
  resourceName: string;
  /** Who holds the lock (a user id) and their display name. */
  userId: string;
  holderName: string;
  /** ISO-8601 UTC: when the lock times out unless refreshed. */
  expiresAt: string;
}

/**
 * What is being changed: a file (in `folderId`, whose depth-infinity locks and those of the folders above reach it)
 * or a folder (locks on it, above it, and on anything inside it reach it: moving or deleting a folder changes the
 * path of everything in it).
 */
export type LockTarget = { file: string; folderId: string | null } | { folder: string };

/**
 * The one place where every change of a file or folder asks about WebDAV locks (docs/PRODUCT.md#webdav): renames,
 * moves, trashing, uploads that replace a file (multipart and tus), version restores and folder operations.
 */
export interface WriteLocks {
  /** 423 `LOCKED` naming the lock when a lock held by someone other than `actorId` reaches `target`. */
  requireUnlocked(actorId: string | null, target: LockTarget): Promise<void>;
}

/**
 * The 423 of a change refused by `lock`: the message names the locked item and its holder; `details[0].path` is the
 * locked item (`file:<id>` or `folder:<id>`, which may be inside or above what was changed), its message the same
 * sentence (the web app shows a detail's message); `Retry-After` says when the lock times out unless refreshed.
 */
export function lockedError(lock: ReachingLock, now: Date): AppError {
  const message = `“${lock.resourceName}” is locked by ${lock.holderName}, who is editing it in another app. Try again later.`;
  const seconds = Math.max(1, Math.ceil((Date.parse(lock.expiresAt) - now.getTime()) / 1000));
  return new AppError('LOCKED', message, {
    details: [{ path: `${lock.resourceKind}:${lock.resourceId}`, message }],
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * The decision: every locked item that reaches the change must have a lock of `actorId` among its locks (the holder
 * of a lock works on, in the app or over WebDAV with the lock's token; a shared lock held by two people lets both).
 * Anyone else — and a change by nobody signed in (a file-drop link) — meets 423 naming the first lock in the way.
 */
export function requireUnlocked(actorId: string | null, locks: readonly ReachingLock[], now: Date): void {
  const byResource = new Map<string, ReachingLock[]>();
  for (const lock of locks) byResource.set(lock.resourceId, [...(byResource.get(lock.resourceId) ?? []), lock]);
  for (const held of byResource.values()) {
    const first = held[0];
    if (first && !held.some((lock) => lock.userId === actorId)) throw lockedError(first, now);
  }
}
