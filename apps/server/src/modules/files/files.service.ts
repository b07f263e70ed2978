import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  nameTakenMessage,
  type FileRecord,
  type FileVersionList,
  type UploadConflict,
  type UserFileStats,
} from '@atrium/contracts';
import type { BlobStore } from '../../adapters/blob-store';
import type { Actor, UserActor } from '../../auth/actor';
import { fileRole, requireActsFor, requireFile, requireMoveOut } from '../../auth/policies/file';
import type { ResourceAction } from '../../auth/policies/roles';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import type { BlobRecord } from '../../lib/http/send-blob';
import { StreamInspector } from '../../lib/stream-inspector';
import { iso, type Clock } from '../../lib/time';
import { formatBytes, readableSize } from '@atrium/contracts/format-bytes';
import { detectContentType, SNIFF_BYTES } from './content-type';
import { decodeCursor, encodeCursor } from './cursor';
import { checkFileName, fileNameKey, numberedFileName, sanitizeFileName } from '../../lib/file-names';
import { presentFile } from './files.presenter';
import type { FileRow, FilesRepository } from './files.repository';
import { sweepOrphans } from './maintenance';
import { fileBlobKey, thumbnailKey, toStoredFile, type StoredFile, type UploadTarget } from './stored-file';
import { createThumbnails } from './thumbnails';
import type { AccessFacts, AccessResolver } from '../spaces/access';
import type { RequestContext } from '../../lib/http/request-context';

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
}

/** Whether `target` is in another space than `file` (another workspace, or another person's personal space). */
const leftSpace = (file: StoredFile, target: UploadTarget): boolean =>
  target.workspaceId !== file.workspaceId || (target.workspaceId === null && target.ownerKey !== file.ownerKey);

/** The content a file gets from an upload or an older version. */
type Content = Pick<FileRow, 'blob_key' | 'size' | 'sha256' | 'content_type' | 'upload_date' | 'uploaded_by'>;

type Inspector = StreamInspector<AppError>;

/**
 * File storage rules: limits, quota, integrity, names. Who may do what is the file policy's
 * (`auth/policies/file.ts`); thumbnails, the orphan sweep, cursors and the wire shape have files of their own.
 */
export const createFilesService = ({
  repo,
  blobs,
  clock,
  limits,
  access,
  placement,
  quotas,
  versionsKept,
  log,
  events,
}: FilesServiceDeps) => {
  const thumbnails = createThumbnails(blobs, log ? { log } : {});
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
  /** File `id` with what the file policy needs to know of the actor: membership and shares (see `spaces/access.ts`). */
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
   * A space's quota: a workspace's (`WORKSPACE_QUOTA_BYTES`) or a person's (their own, set by an admin, else
   * `USER_QUOTA_BYTES`).
   */
  const quotaOf = async (space: { workspaceId: string | null; ownerKey: string }): Promise<number> =>
    space.workspaceId === null
      ? ((await quotas.quotaOf(space.ownerKey)) ?? limits.userQuotaBytes)
      : limits.workspaceQuotaBytes;
  const usedBytes = async (space: { workspaceId: string | null; ownerKey: string }) =>
    space.workspaceId === null
      ? await repo.statsByOwner(space.ownerKey).then((s) => s.sizeInBytes + s.trashBytes + s.versionBytes)
      : await repo.usedByWorkspace(space.workspaceId);

  /** The 413 of a full space; `quotaBytes`: a person's own quota when it is not the default. */
  const quotaError = (space: { workspaceId: string | null } = { workspaceId: null }, quotaBytes?: number) =>
    new AppError(
      'QUOTA_EXCEEDED',
      space.workspaceId !== null
        ? `This would exceed the workspace's storage quota of ${formatBytes(limits.workspaceQuotaBytes)}. Delete some of its files and try again.`
        : quotaBytes === undefined || quotaBytes === limits.userQuotaBytes
          ? `This upload would exceed the storage quota of ${formatBytes(limits.userQuotaBytes)} per user. Delete some files and try again.`
          : `This upload would exceed your storage quota of ${formatBytes(quotaBytes)}. Delete some files and try again.`,
    );
  const tooLargeError = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${formatBytes(limits.maxBytes)}.`);

  /** An inspector that fails once the upload passes the upload limit or the space's remaining quota. */
  const inspectorWithin = (remaining: number, space: { workspaceId: string | null }, quotaBytes: number): Inspector =>
    new StreamInspector(
      (size) =>
        size > limits.maxBytes ? tooLargeError() : size > remaining ? quotaError(space, quotaBytes) : undefined,
      SNIFF_BYTES,
    );

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

  async function insertWithFreeName(row: FileRow & { folder_id: string }): Promise<void> {
    await withFreeName(row.folder_id, row.file_name, async (name) => {
      row.file_name = name;
      row.name_key = fileNameKey(name);
      await repo.insert(row);
    });
  }

  /**
   * THE place where a file gets new content — an upload that replaces it (`?onConflict=replace`) or an older version
   * made current: the content it had becomes a version (one transaction), versions beyond `FILE_VERSIONS_KEPT` and
   * the old thumbnail go. `fromVersionId`: the version the content comes from (no new bytes: the quota is unchanged).
   * Announces the new content (`file.stored`), as a new upload does.
   */
  async function storeNewContent(current: FileRow, next: Content, fromVersionId?: string): Promise<FileRecord> {
    const space = { workspaceId: current.workspace_id, ownerKey: current.owner_key };
    if (fromVersionId === undefined) {
      // The old content stays as a version: the new bytes must fit beside it.
      const quota = await quotaOf(space);
      if ((await usedBytes(space)) + next.size > quota) throw quotaError(space, quota);
    }
    if (!(await repo.replaceContent(current, next, randomUUID(), fromVersionId))) {
      throw new AppError('CONFLICT', 'The file changed while its new content was being stored. Try again.');
    }
    const pruned = await repo.pruneVersions(current.id, versionsKept);
    await Promise.all([
      blobs.delete(thumbnailKey(current.blob_key)),
      ...pruned.flatMap((key) => [blobs.delete(key), blobs.delete(thumbnailKey(key))]),
    ]).catch((error: unknown) =>
      log?.warn({ err: error, id: current.id }, 'could not remove the bytes of old versions'),
    );
    const stored = toStoredFile({ ...current, ...next });
    await announceStored(stored);
    return presentFile(stored);
  }

  /** Announces that a file has new content (`file.stored`); `emit` logs a failing reaction, never fails the upload. */
  async function announceStored(stored: StoredFile): Promise<void> {
    await events?.emit('file.stored', { file: stored });
  }

  /** The 409 of `?onConflict=fail` when `fileName` is taken in `folderId` (checked before any byte is read). */
  async function failIfTaken(folderId: string, fileName: string, onConflict: UploadConflict | undefined) {
    if (onConflict !== 'fail') return;
    const existing = await repo.findByName(folderId, fileNameKey(fileName));
    if (existing) throw new AppError('CONFLICT', nameTakenMessage(existing.file_name));
  }

  /** Writes the metadata row of bytes already stored under `blobKey`; on any failure removes them. */
  async function commit({
    id,
    blobKey,
    target,
    fileName,
    inspector,
    onConflict,
    context,
  }: {
    id: string;
    blobKey: string;
    target: UploadTarget;
    fileName: string;
    inspector: Inspector;
    onConflict?: UploadConflict | undefined;
    context?: ChangeContext | undefined;
  }): Promise<FileRecord> {
    try {
      if (inspector.size === 0) throw new AppError('BAD_REQUEST', 'The file is empty. Choose a file with content.');
      if (onConflict === 'replace' || onConflict === 'fail') {
        const existing = await repo.findByName(target.folderId, fileNameKey(fileName));
        if (existing && onConflict === 'fail') throw new AppError('CONFLICT', nameTakenMessage(existing.file_name));
        if (existing) {
          const replaced = await storeNewContent(existing, {
            blob_key: blobKey,
            size: inspector.size,
            sha256: inspector.digest(),
            content_type: await detectContentType(inspector.head(), fileName),
            upload_date: iso(clock.now()),
            uploaded_by: target.uploadedBy,
          });
          await recordChange('file.version_added', existing.id, context, target.uploadedBy, {
            name: replaced.fileName,
            size: replaced.size,
          });
          return replaced;
        }
      }
      const row: FileRow & { folder_id: string } = {
        id,
        owner_key: target.ownerKey,
        file_name: fileName,
        name_key: fileNameKey(fileName),
        size: inspector.size,
        content_type: await detectContentType(inspector.head(), fileName),
        sha256: inspector.digest(),
        blob_key: blobKey,
        upload_date: iso(clock.now()),
        folder_id: target.folderId,
        workspace_id: target.workspaceId,
        uploaded_by: target.uploadedBy,
        trashed_at: null,
        trashed_by: null,
        trash_root_id: null,
      };
      await insertWithFreeName(row);
      // Concurrent uploads each checked the quota on their own: re-check with
      // this file counted, and withdraw it if together they went over.
      const quota = await quotaOf(target);
      if ((await usedBytes(target)) > quota) {
        await repo.deleteById(id);
        throw quotaError(target, quota);
      }
      const stored = toStoredFile(row);
      await announceStored(stored);
      await recordChange('file.uploaded', id, context, target.uploadedBy, {
        name: row.file_name,
        size: row.size,
        ...(target.uploadedBy === null ? { via: 'link' } : {}),
      });
      return presentFile(stored);
    } catch (error) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw error;
    }
  }

  const service = {
    /** The limit and quota errors, for callers that check a declared length before any byte arrives (tus). */
    quotaError,
    tooLargeError,
    /** The quota error of a space, naming its quota (a person's own one included). */
    quotaErrorOf: async (space: { workspaceId: string | null; ownerKey: string }) =>
      quotaError(space, await quotaOf(space)),

    /** The remaining quota of a space (a person's or a workspace's), in bytes (may be negative). */
    async remainingQuota(space: { workspaceId: string | null; ownerKey: string }): Promise<number> {
      return (await quotaOf(space)) - (await usedBytes(space));
    },

    /**
     * Stores a stream as a new file at `target` (the caller has checked that the actor may write there before
     * reading the body: `FoldersService.uploadTarget`): counted, hashed and sniffed while it streams into the blob
     * store; the metadata row is written only after every byte is stored. On any failure nothing remains: no row,
     * no blob.
     */
    async ingest(target: UploadTarget, input: UploadInput): Promise<FileRecord> {
      const fileName = sanitizeFileName(input.fileName);
      // Listen before the first await: a multipart part can fail (a truncated form) while the
      // quota is read, and an unheard 'error' event would crash the process.
      let sourceError: (Error & { statusCode?: number }) | undefined;
      input.stream.on('error', (error) => {
        sourceError = error;
      });
      // The client's side failed (disconnect, malformed form, multipart limits): a 4xx, never a 500.
      const clientFailure = (failed: Error & { statusCode?: number }, cause: unknown) => {
        const status = failed.statusCode;
        if (status && status >= 400 && status < 500) return failed;
        return new AppError('BAD_REQUEST', 'The upload did not complete.', { cause });
      };
      try {
        await failIfTaken(target.folderId, fileName, input.onConflict);
      } catch (error) {
        input.stream.resume();
        throw error;
      }
      const quota = await quotaOf(target);
      const remaining = quota - (await usedBytes(target));
      // A part can also be handed over already failed (@fastify/multipart destroys it with the error).
      if (sourceError || input.stream.destroyed) {
        const failed = sourceError ?? input.stream.errored ?? new Error('The upload stream closed early.');
        throw clientFailure(failed, failed);
      }
      if (remaining <= 0) {
        input.stream.resume();
        throw quotaError(target, quota);
      }
      const inspector = inspectorWithin(remaining, target, quota);
      input.stream.on('error', (error) => inspector.destroy(error));
      // The blob store hears the inspector's failure while it reads; one that comes after it
      // stopped reading (a form that ends early) must not be an unheard 'error' that kills the process.
      inspector.on('error', () => undefined);
      const id = randomUUID();
      const blobKey = fileBlobKey(id);
      input.stream.pipe(inspector);
      try {
        await blobs.put(blobKey, inspector);
      } catch (error) {
        input.stream.destroy();
        await blobs.delete(blobKey).catch(() => undefined);
        if (error instanceof AppError) throw error;
        if (sourceError) throw clientFailure(sourceError, error);
        throw error;
      }
      return commit({ id, blobKey, target, fileName, inspector, onConflict: input.onConflict, context: input.context });
    },

    /**
     * Stores a stream in folder `folderId` of any space, for callers whose own policy decided (a file-drop link's
     * bearer): the folder's space, quota and name rules apply; `uploadedBy` is recorded (null: anonymous).
     */
    async ingestIntoFolder(folderId: string, uploadedBy: string | null, input: UploadInput): Promise<FileRecord> {
      const target = await placement.targetOfFolder(folderId, uploadedBy);
      if (!target) {
        input.stream.resume();
        throw new AppError('FOLDER_NOT_FOUND');
      }
      return service.ingest(target, input);
    },

    /**
     * Stores a complete local file (a finished resumable upload) as a new file at `target`.
     * When the blob store can take the file over (same disk), it is read once to count, hash and
     * sniff it and then moved, not copied; otherwise it is streamed in like any upload.
     */
    async ingestFile(
      target: UploadTarget,
      input: {
        fileName: string | undefined;
        file: string;
        onConflict?: UploadConflict | undefined;
        context?: ChangeContext | undefined;
      },
    ): Promise<FileRecord> {
      if (!blobs.adoptFile) {
        const stream = createReadStream(input.file, { highWaterMark: 1024 * 1024 });
        return service.ingest(target, {
          fileName: input.fileName,
          stream,
          onConflict: input.onConflict,
          context: input.context,
        });
      }
      const fileName = sanitizeFileName(input.fileName);
      await failIfTaken(target.folderId, fileName, input.onConflict);
      const quota = await quotaOf(target);
      const remaining = quota - (await usedBytes(target));
      if (remaining <= 0) throw quotaError(target, quota);
      const inspector = inspectorWithin(remaining, target, quota);
      await inspector.inspectFile(input.file);
      const id = randomUUID();
      const blobKey = fileBlobKey(id);
      await blobs.adoptFile(blobKey, input.file);
      return commit({ id, blobKey, target, fileName, inspector, onConflict: input.onConflict, context: input.context });
    },

    async list(actor: Actor, ownerKey: string, page: { limit?: number | undefined; cursor?: string | undefined }) {
      requireActsFor(actor, ownerKey, 'read');
      const limit = page.limit ?? 1000;
      const rows = await repo.listByOwner(ownerKey, limit + 1, page.cursor ? decodeCursor(page.cursor) : undefined);
      const items = rows.slice(0, limit).map(toStoredFile);
      const last = items.at(-1);
      return {
        files: items.map(presentFile),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : undefined,
      };
    },

    async stats(actor: Actor, ownerKey: string): Promise<UserFileStats> {
      requireActsFor(actor, ownerKey, 'read');
      const { fileCount, sizeInBytes, trashBytes, versionBytes } = await repo.statsByOwner(ownerKey);
      return { fileCount, sizeInBytes, readableSize: readableSize(sizeInBytes), trashBytes, versionBytes };
    },

    /** A file the actor may read. */
    get: (actor: Actor, id: string): Promise<StoredFile> => authorized(actor, id, 'read'),

    /**
     * A file the actor may read, with what the file policy read of the actor (membership role, share role) and the
     * role it gives them (the details panel shows more to who may share).
     */
    async readableWithRole(actor: UserActor, id: string) {
      const file: StoredFile & Partial<AccessFacts> = await requireFile(actor, 'read', () => find(actor, id));
      return { file, role: fileRole(actor, file) ?? 'viewer' };
    },

    /** File `id` if the actor may do `action` to it: 404 `FILE_NOT_FOUND` when hidden, 403 when view-only. */
    authorize: authorized,

    /**
     * File `id` with no policy check, for callers whose own policy decided (a public link's bearer: the link policy
     * and the link's file or folder say what it reaches).
     */
    async findUnchecked(id: string): Promise<StoredFile | undefined> {
      const row = await repo.findById(id);
      return row && toStoredFile(row);
    },

    /**
     * Renames a file and/or moves it into another folder, of its space or of any space the actor may write to
     * (leaving a space needs its `manage` right — its owner: `requireMoveOut`; the bytes then count against the new
     * space's quota). A name taken in the target folder becomes `name (1).ext`.
     */
    async update(
      actor: UserActor,
      id: string,
      change: { fileName?: string | undefined; folderId?: string | undefined },
      context?: RequestContext,
    ): Promise<FileRecord> {
      const file: StoredFile & Partial<AccessFacts> = await requireFile(actor, 'write', () => find(actor, id));
      let target: UploadTarget | undefined;
      if (change.folderId !== undefined && change.folderId !== file.folderId) {
        const folder = await placement.authorize(actor, change.folderId, 'write');
        target = await placement.targetOfFolder(folder.id, actor.id);
        if (!target) throw new AppError('FOLDER_NOT_FOUND');
        if (leftSpace(file, target)) {
          requireMoveOut(actor, file);
          if ((await service.remainingQuota(target)) < file.size) throw await service.quotaErrorOf(target);
        } else {
          // Within one space the file keeps whose it is.
          target = { ...target, ownerKey: file.ownerKey };
        }
      }
      const folderId = target?.folderId ?? file.folderId;
      const wanted = change.fileName === undefined ? file.fileName : checkFileName(change.fileName);
      if (folderId === null) throw new AppError('CONFLICT', FILE_MESSAGES.folderGone);
      const name = await withFreeName(
        folderId,
        wanted,
        (candidate) =>
          repo.update(id, {
            file_name: candidate,
            name_key: fileNameKey(candidate),
            ...(target
              ? { folder_id: target.folderId, workspace_id: target.workspaceId, owner_key: target.ownerKey }
              : {}),
          }),
        id,
      );
      const changeContext = { actor: actor.ownerKey, ...context };
      if (name !== file.fileName) {
        await recordChange('file.renamed', id, changeContext, null, { from: file.fileName, to: name });
      }
      if (target && file.folderId !== folderId) {
        // Between spaces the old folder's name stays out: readers of the new space need not learn it.
        const [fromName, toName] = await Promise.all([
          leftSpace(file, target) || file.folderId === null ? undefined : repo.folderName(file.folderId),
          repo.folderName(folderId),
        ]);
        await recordChange('file.moved', id, changeContext, null, {
          name,
          from: leftSpace(file, target) ? { otherSpace: true } : { id: file.folderId, name: fromName ?? null },
          to: { id: folderId, name: toName ?? null },
        });
      }
      return presentFile({ ...file, fileName: name });
    },

    /** What `sendBlob` needs to send a file's bytes. */
    blobOf: (file: StoredFile): BlobRecord => ({
      size: file.size,
      etag: `"${file.sha256}"`,
      lastModified: new Date(file.uploadDate),
      contentType: file.contentType,
      fileName: file.fileName,
      open: (range) => blobs.get(file.blobKey, range),
    }),

    /**
     * Moves a file to the trash of its space (the spec's delete): it disappears from every list, link and share at
     * once; `DELETE /api/trash/{id}` or the purge job removes it for good (`purge`).
     */
    async remove(actor: UserActor, id: string): Promise<{ id: string; deleted: true }> {
      await authorized(actor, id, 'delete');
      if (!(await repo.trash(id, actor.id, iso(clock.now())))) throw new AppError('FILE_NOT_FOUND');
      return { id, deleted: true };
    },

    /**
     * Puts trashed file `id` back into `folderId` (the caller chose it: its old folder, or the root of its space when
     * that is gone); a name taken there becomes `name (1).ext`. Answers the name it got.
     */
    async restoreInto(id: string, folderId: string, fileName: string): Promise<string> {
      return withFreeName(folderId, fileName, (name) => repo.untrash(id, folderId, name, fileNameKey(name)));
    },

    /**
     * Deletes file `id` for good, in the trash or not: metadata first (its shares, links and versions' rows go with
     * it), then its bytes, its versions' and its thumbnail (a blob a crash leaves behind is an orphan the sweep
     * removes).
     */
    async purge(id: string): Promise<boolean> {
      const row = await repo.findAnyById(id);
      if (!row) return false;
      const versionKeys = await repo.versionBlobKeys(id);
      if (!(await repo.deleteById(id))) return false;
      await Promise.all([
        blobs.delete(row.blob_key),
        blobs.delete(thumbnailKey(row.blob_key)),
        ...versionKeys.map((key) => blobs.delete(key)),
      ]).catch((error: unknown) => log?.warn({ err: error, id }, 'could not remove the bytes of a purged file'));
      return true;
    },

    /** Whether `?onConflict=fail` refuses a file named `fileName` in `folderId` (tus checks it at creation). */
    failIfTaken: (folderId: string, fileName: string | undefined, onConflict: UploadConflict | undefined) =>
      failIfTaken(folderId, sanitizeFileName(fileName), onConflict),

    /** The older versions of a file the actor may read, newest first. */
    async versions(actor: Actor, id: string): Promise<FileVersionList> {
      await authorized(actor, id, 'read');
      const rows = await repo.listVersions(id);
      return {
        versions: rows.map((row) => ({
          id: row.id,
          size: Number(row.size),
          contentType: row.content_type,
          sha256: row.sha256,
          uploadedBy:
            row.uploaded_by === null ? null : { id: row.uploaded_by, name: row.uploader_name ?? row.uploaded_by },
          createdAt: row.created_at,
        })),
        kept: versionsKept,
      };
    },

    /** What `sendBlob` needs to send version `versionId` of a file the actor may read (named as the file). */
    async versionBlob(actor: Actor, id: string, versionId: string): Promise<BlobRecord> {
      const file = await authorized(actor, id, 'read');
      const version = await repo.findVersion(id, versionId);
      if (!version) throw new AppError('NOT_FOUND', VERSION_NOT_FOUND);
      return {
        size: Number(version.size),
        etag: `"${version.sha256}"`,
        lastModified: new Date(version.created_at),
        contentType: version.content_type,
        fileName: file.fileName,
        open: (range) => blobs.get(version.blob_key, range),
      };
    },

    /** Makes version `versionId` the file's content; the current content becomes a version (`write` needed). */
    async restoreVersion(actor: Actor, id: string, versionId: string, context?: RequestContext): Promise<FileRecord> {
      await authorized(actor, id, 'write');
      const [row, version] = await Promise.all([repo.findById(id), repo.findVersion(id, versionId)]);
      if (!row) throw new AppError('FILE_NOT_FOUND');
      if (!version) throw new AppError('NOT_FOUND', VERSION_NOT_FOUND);
      const restored = await storeNewContent(
        row,
        {
          blob_key: version.blob_key,
          size: Number(version.size),
          sha256: version.sha256,
          content_type: version.content_type,
          upload_date: iso(clock.now()),
          uploaded_by: version.uploaded_by,
        },
        versionId,
      );
      await recordChange(
        'file.version_restored',
        id,
        { actor: actor.kind === 'user' ? actor.ownerKey : null, ...context },
        null,
        { name: restored.fileName, versionOf: version.created_at, size: restored.size },
      );
      return restored;
    },

    /** A small WebP of an image the actor may read, made on first request and kept. */
    async thumbnail(actor: Actor, id: string): Promise<{ file: StoredFile; stream: Readable }> {
      const file = await authorized(actor, id, 'read');
      return { file, stream: await thumbnails.open(file) };
    },

    /** The thumbnail of a file with no policy check, for callers whose own policy decided (a public link's bearer). */
    thumbnailUnchecked: (file: StoredFile): Promise<Readable> => thumbnails.open(file),

    /**
     * Makes the thumbnail of a file's current content unless it exists (the background job after an upload); throws
     * the thumbnail's AppErrors (404: no thumbnail for its type or its engine is missing; 415: unreadable; 503: busy).
     */
    prepareThumbnail: async (file: StoredFile): Promise<void> => {
      await thumbnails.ensure(file);
    },

    /** See `maintenance.ts`. */
    sweepOrphans: (graceMs: number) => sweepOrphans({ repo, blobs, clock }, graceMs),
  };
  return service;
};

export type FilesService = ReturnType<typeof createFilesService>;
