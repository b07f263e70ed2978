import type { Readable } from 'node:stream';
import type { UploadConflict } from '@atrium/contracts';
import type { BlobStore } from '../../adapters/blob-store';
import type { AccessResolver } from '../../auth/access-facts';
import type { Actor, UserActor } from '../../auth/actor';
import { requireFile } from '../../auth/policies/file';
import type { ResourceAction } from '../../auth/policies/roles';
import type { WriteLocks } from '../../auth/policies/write-lock';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { fileNameKey, numberedFileName } from '../../lib/file-names';
import type { Clock } from '../../lib/time';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import type { FileRow, FilesRepository } from './files.repository';
import { createQuota } from './quota';
import { toStoredFile, type StoredFile, type UploadTarget } from './stored-file';
import { createThumbnails } from './thumbnails';

/** Attempts to find a free name when simultaneous uploads keep taking the one chosen. */
const NAME_ATTEMPTS = 10;

/** What the files service asks of the spaces (folders) it stores into. */
export interface FilePlacement {
  /** Folder `id` if the actor may do `action` in it (404 `FOLDER_NOT_FOUND` when hidden, 403 when view-only). */
  authorize(actor: UserActor, id: string, action: ResourceAction): Promise<{ id: string }>;
  /** Where a file put into folder `folderId` goes (its space), or undefined when the folder does not exist. */
  targetOfFolder(folderId: string, uploadedBy: string | null): Promise<UploadTarget | undefined>;
}

export interface FilesServiceDeps {
  repo: FilesRepository;
  blobs: BlobStore;
  clock: Clock;
  limits: { maxBytes: number; userQuotaBytes: number; workspaceQuotaBytes: number };
  access: AccessResolver;
  placement: FilePlacement;
  /** A person's own quota (set by an admin), or null for the default `USER_QUOTA_BYTES`. */
  quotas: { quotaOf(ownerKey: string): Promise<number | null> };
  /** Older versions kept per file (`FILE_VERSIONS_KEPT`). */
  versionsKept: number;
  log?: { warn(details: object, message: string): void };
  /**
   * Where the service tells what happened. `file.stored` for every file whose content was stored (multipart upload,
   * upload into a folder, finished tus upload, new version), after its row is written: background analysis and
   * thumbnails enqueue their jobs there, awaited, so the jobs are durable before the upload is answered. Audited
   * changes: uploads (`file.uploaded`, `file.version_added` for a replace), renames, moves and version restores, where
   * the service knows what changed (the audit log records them; a file's activity in its details reads them).
   * A failing reaction is logged, never thrown.
   */
  events?: EventEmitter;
  /** WebDAV locks every change of a file honours (`auth/policies/write-lock.ts`). */
  writeLocks?: WriteLocks;
}

/** Who acted and from where, for the audit entry of a change; `actor` is an owner key (null: a file-drop link). */
export interface ChangeContext extends RequestContext {
  actor?: string | null;
}

/** The 404 of an unknown version of a file. */
export const VERSION_NOT_FOUND = 'This version of the file does not exist.';

/** The 4xx messages of renaming and moving files. */
export const FILE_MESSAGES = {
  folderGone: 'The folder was deleted while the file was being stored. Choose another folder and try again.',
} as const;

export interface UploadInput {
  fileName: string | undefined;
  stream: Readable;
  /** When the name is taken in the target folder: `rename` (default), `replace` (a new version) or `fail` (409). */
  onConflict?: UploadConflict | undefined;
  /** For the audit entry; without one the uploader (`UploadTarget.uploadedBy`) is the actor. */
  context?: ChangeContext | undefined;
  /** Keep an empty file (WebDAV clients sync 0-byte files); the app's uploads refuse them. */
  allowEmpty?: boolean | undefined;
  /** ISO-8601 UTC: the modification time the client declared (WebDAV `X-OC-Mtime`). */
  modifiedAt?: string | undefined;
}

/**
 * What every room of the files module shares (ingest, versions, queries, changes): the deps, the quota, the
 * thumbnails, the policy-checked lookup, the audit entry of a change and the free-name loop.
 */
export function createFilesCore(deps: FilesServiceDeps) {
  const { repo, access, events, blobs, log } = deps;
  const thumbnails = createThumbnails(blobs, log ? { log } : {});
  const quota = createQuota(deps);
  /** Emits one audited change about file `id` (emit never throws). */
  async function recordChange(
    action: 'file.uploaded' | 'file.version_added' | 'file.renamed' | 'file.moved' | 'file.version_restored',
    id: string,
    context: ChangeContext | undefined,
    fallbackActorId: string | null,
    details: Record<string, unknown>,
  ): Promise<void> {
    if (!events) return;
    const { actor, ...where } = context ?? {};
    const who =
      actor !== undefined
        ? actor
        : fallbackActorId === null
          ? null
          : ((await repo.ownerKeyOfUser(fallbackActorId).catch(() => undefined)) ?? null);
    await events.emit(action, { actor: who, target: `file:${id}`, details, ...where });
  }
  /** File `id` with what the file policy needs to know of the actor: membership and shares (see `auth/access-facts.ts`). */
  const find = async (actor: Actor, id: string) => {
    const row = await repo.findById(id);
    if (!row) return undefined;
    const file = toStoredFile(row);
    if (actor.kind !== 'user') return file;
    const owns = file.workspaceId === null && file.ownerKey === actor.ownerKey;
    const facts = await access.factsFor(
      actor,
      { workspaceId: file.workspaceId, folderId: file.folderId, fileId: id },
      owns,
    );
    return { ...file, ...facts };
  };
  /** The file, if the actor may do `action` to it (404 `FILE_NOT_FOUND` otherwise: see the policy). */
  const authorized = async (actor: Actor, id: string, action: ResourceAction): Promise<StoredFile> =>
    requireFile(actor, action, () => find(actor, id));

  /**
   * Writes a file under the first of `name.ext`, `name (1).ext`, `name (2).ext`… that no other file of
   * `folderId` has (`fileNameKey`: case-insensitive). The unique index (folder_id, name_key) is the arbiter: when
   * a simultaneous write takes the chosen name first, the names in use are read again and the next is tried.
   */
  async function withFreeName(
    folderId: string,
    wanted: string,
    write: (name: string) => Promise<void>,
    excludeId?: string,
  ): Promise<string> {
    for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt += 1) {
      const dot = wanted.lastIndexOf('.');
      const taken = await repo.nameKeysStartingWith(
        folderId,
        fileNameKey(dot > 0 ? wanted.slice(0, dot) : wanted).slice(0, 200),
        excludeId,
      );
      let n = 0;
      while (taken.has(fileNameKey(numberedFileName(wanted, n)))) n += 1;
      const name = numberedFileName(wanted, n);
      try {
        await write(name);
        return name;
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new AppError('CONFLICT', FILE_MESSAGES.folderGone);
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new AppError('CONFLICT', 'Too many files with this name are being uploaded at once. Try again.');
  }

  return { ...deps, thumbnails, quota, recordChange, find, authorized, withFreeName };
}

export type FilesCore = ReturnType<typeof createFilesCore>;

/** The content a file gets from an upload or an older version. */
export type Content = Pick<FileRow, 'blob_key' | 'size' | 'sha256' | 'content_type' | 'upload_date' | 'uploaded_by'> & {
  /** Null: the new content's modification time is its `upload_date`. */
  modified_at: string | null;
};
