import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { nameTakenMessage, type FileRecord, type UploadConflict } from '@atrium/contracts';
import { AppError } from '../../errors';
import { fileNameKey, sanitizeFileName } from '../../lib/file-names';
import type { StreamInspector } from '../../lib/stream-inspector';
import { iso } from '../../lib/time';
import { detectContentType } from './content-type';
import type { ChangeContext, Content, FilesCore, UploadInput } from './files.core';
import { presentFile } from './files.presenter';
import type { FileRow } from './files.repository';
import { fileBlobKey, thumbnailKey, toStoredFile, type StoredFile, type UploadTarget } from './stored-file';

type Inspector = StreamInspector<AppError>;

/**
 * The ingest room: a stream or a finished local file becomes a stored file (limits, quota, integrity, names), or the
 * new content of one (`?onConflict=replace`, an older version restored: `storeNewContent`).
 */
export function createFilesIngest(core: FilesCore) {
  const { repo, blobs, clock, log, quota, placement, versionsKept, events, recordChange, withFreeName, writeLocks } =
    core;

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
   * Announces `file.stored` (analysis and thumbnails react), as a new upload does. A WebDAV lock of someone other
   * than `by` (the writer's user id; null: a file-drop link) refuses it with 423.
   */
  async function storeNewContent(
    current: FileRow,
    next: Content,
    by: string | null,
    fromVersionId?: string,
  ): Promise<FileRecord> {
    await writeLocks?.requireUnlocked(by, { file: current.id, folderId: current.folder_id });
    const space = { workspaceId: current.workspace_id, ownerKey: current.owner_key };
    if (fromVersionId === undefined) {
      // The old content stays as a version: the new bytes must fit beside it.
      await quota.requireRoom(space, next.size);
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

  /** Announces `file.stored` (analysis, thumbnails react); a failing reaction is logged, never fails the upload. */
  async function announceStored(stored: StoredFile): Promise<void> {
    await events?.emit('file.stored', { file: stored });
  }

  /**
   * Checked before any byte is read: the 409 of `?onConflict=fail` when `fileName` is taken in the target folder, the
   * 423 of `?onConflict=replace` when the file it would replace is locked over WebDAV by someone else.
   */
  async function failIfTaken(target: UploadTarget, fileName: string, onConflict: UploadConflict | undefined) {
    if (onConflict !== 'fail' && onConflict !== 'replace') return;
    const existing = await repo.findByName(target.folderId, fileNameKey(fileName));
    if (!existing) return;
    if (onConflict === 'fail') throw new AppError('CONFLICT', nameTakenMessage(existing.file_name));
    await writeLocks?.requireUnlocked(target.uploadedBy, { file: existing.id, folderId: existing.folder_id });
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
    allowEmpty,
    modifiedAt,
  }: {
    id: string;
    blobKey: string;
    target: UploadTarget;
    fileName: string;
    inspector: Inspector;
    onConflict?: UploadConflict | undefined;
    context?: ChangeContext | undefined;
    allowEmpty?: boolean | undefined;
    modifiedAt?: string | undefined;
  }): Promise<FileRecord> {
    try {
      if (inspector.size === 0 && !allowEmpty)
        throw new AppError('BAD_REQUEST', 'The file is empty. Choose a file with content.');
      if (onConflict === 'replace' || onConflict === 'fail') {
        const existing = await repo.findByName(target.folderId, fileNameKey(fileName));
        if (existing && onConflict === 'fail') throw new AppError('CONFLICT', nameTakenMessage(existing.file_name));
        if (existing) {
          const replaced = await storeNewContent(
            existing,
            {
              blob_key: blobKey,
              size: inspector.size,
              sha256: inspector.digest(),
              content_type: await detectContentType(inspector.head(), fileName),
              upload_date: iso(clock.now()),
              uploaded_by: target.uploadedBy,
              modified_at: modifiedAt ?? null,
            },
            target.uploadedBy,
          );
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
        modified_at: modifiedAt ?? null,
      };
      await insertWithFreeName(row);
      // Concurrent uploads each checked the quota on their own: re-check with
      // this file counted, and withdraw it if together they went over.
      const over = await quota.overQuota(target);
      if (over) {
        await repo.deleteById(id);
        throw over;
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

  const room = {
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
        await failIfTaken(target, fileName, input.onConflict);
      } catch (error) {
        input.stream.resume();
        throw error;
      }
      const { quota: quotaBytes, remaining } = await quota.budget(target);
      // A part can also be handed over already failed (@fastify/multipart destroys it with the error).
      if (sourceError || input.stream.destroyed) {
        const failed = sourceError ?? input.stream.errored ?? new Error('The upload stream closed early.');
        throw clientFailure(failed, failed);
      }
      if (remaining <= 0) {
        input.stream.resume();
        throw quota.quotaError(target, quotaBytes);
      }
      const inspector = quota.inspectorWithin(remaining, target, quotaBytes);
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
      return commit({
        id,
        blobKey,
        target,
        fileName,
        inspector,
        onConflict: input.onConflict,
        context: input.context,
        allowEmpty: input.allowEmpty,
        modifiedAt: input.modifiedAt,
      });
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
      return room.ingest(target, input);
    },

    /**
     * Stores a complete local file (a finished resumable upload) as a new file at `target`.
     * When the blob store can take the file over (same disk), it is moved, not copied, after it was counted, hashed
     * and sniffed: while it was written (`inspected`, all of its bytes), or by reading it once; otherwise it is
     * streamed in like any upload.
     */
    async ingestFile(
      target: UploadTarget,
      input: {
        fileName: string | undefined;
        file: string;
        onConflict?: UploadConflict | undefined;
        context?: ChangeContext | undefined;
        inspected?: StreamInspector | undefined;
      },
    ): Promise<FileRecord> {
      if (!blobs.adoptFile) {
        const stream = createReadStream(input.file, { highWaterMark: 1024 * 1024 });
        return room.ingest(target, {
          fileName: input.fileName,
          stream,
          onConflict: input.onConflict,
          context: input.context,
        });
      }
      const fileName = sanitizeFileName(input.fileName);
      await failIfTaken(target, fileName, input.onConflict);
      const { quota: quotaBytes, remaining } = await quota.budget(target);
      if (remaining <= 0) throw quota.quotaError(target, quotaBytes);
      const inspector = quota.inspectorWithin(remaining, target, quotaBytes);
      if (input.inspected) {
        const error = inspector.takeOver(input.inspected);
        if (error) throw error;
      } else {
        await inspector.inspectFile(input.file);
      }
      const id = randomUUID();
      const blobKey = fileBlobKey(id);
      await blobs.adoptFile(blobKey, input.file);
      return commit({ id, blobKey, target, fileName, inspector, onConflict: input.onConflict, context: input.context });
    },

    storeNewContent,

    /** Whether `?onConflict=` refuses a file named `fileName` at `target` (tus checks it at creation). */
    failIfTaken: (target: UploadTarget, fileName: string | undefined, onConflict: UploadConflict | undefined) =>
      failIfTaken(target, sanitizeFileName(fileName), onConflict),
  };
  return room;
}
