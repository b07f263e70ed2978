import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FileRecord, UserFileStats } from '@atrium/contracts';
import type { BlobStore } from '../../adapters/blob-store';
import type { Actor } from '../../auth/actor';
import { requireActsFor, requireFile } from '../../auth/policies/file';
import type { ResourceAction } from '../../auth/policies/roles';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import type { BlobRecord } from '../../lib/http/send-blob';
import { StreamInspector } from '../../lib/stream-inspector';
import { iso, type Clock } from '../../lib/time';
import { formatBytes, readableSize } from '@atrium/contracts/format-bytes';
import { detectContentType, SNIFF_BYTES } from './content-type';
import { decodeCursor, encodeCursor } from './cursor';
import { fileNameKey, numberedFileName, sanitizeFileName } from '../../lib/file-names';
import { presentFile } from './files.presenter';
import type { FileRow, FilesRepository } from './files.repository';
import { sweepOrphans } from './maintenance';
import { fileBlobKey, thumbnailKey, toStoredFile, type StoredFile } from './stored-file';
import { createThumbnails } from './thumbnails';

/** Attempts to find a free name when simultaneous uploads keep taking the one chosen. */
const NAME_ATTEMPTS = 10;

export interface FilesServiceDeps {
  repo: FilesRepository;
  blobs: BlobStore;
  clock: Clock;
  limits: { maxBytes: number; userQuotaBytes: number };
  log?: { warn(details: object, message: string): void };
}

export interface UploadInput {
  fileName: string | undefined;
  stream: Readable;
}

type Inspector = StreamInspector<AppError>;

/**
 * File storage rules: limits, quota, integrity, names. Who may do what is the file policy's
 * (`auth/policies/file.ts`); thumbnails, the orphan sweep, cursors and the wire shape have files of their own.
 */
export const createFilesService = ({ repo, blobs, clock, limits, log }: FilesServiceDeps) => {
  const thumbnails = createThumbnails(blobs);
  const find = async (id: string) => {
    const row = await repo.findById(id);
    return row && toStoredFile(row);
  };
  /** The file, if the actor may do `action` to it (404 `FILE_NOT_FOUND` otherwise: see the policy). */
  const authorized = (actor: Actor, id: string, action: ResourceAction) => requireFile(actor, action, () => find(id));

  const quotaError = () =>
    new AppError(
      'QUOTA_EXCEEDED',
      `This upload would exceed the storage quota of ${formatBytes(limits.userQuotaBytes)} per user. Delete some files and try again.`,
    );
  const tooLargeError = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${formatBytes(limits.maxBytes)}.`);

  /** An inspector that fails once the upload passes the upload limit or the owner's remaining quota. */
  const inspectorWithin = (remaining: number): Inspector =>
    new StreamInspector(
      (size) => (size > limits.maxBytes ? tooLargeError() : size > remaining ? quotaError() : undefined),
      SNIFF_BYTES,
    );

  /**
   * Inserts the row under the first of `name.ext`, `name (1).ext`, `name (2).ext`… that the owner has no
   * file by (`fileNameKey`: case-insensitive). The unique index (owner_key, name_key) is the arbiter: when a
   * simultaneous upload takes the chosen name first, the names in use are read again and the next is tried.
   */
  async function insertWithFreeName(row: FileRow): Promise<void> {
    const wanted = row.file_name;
    for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt += 1) {
      const dot = wanted.lastIndexOf('.');
      const taken = await repo.nameKeysStartingWith(
        row.owner_key,
        fileNameKey(dot > 0 ? wanted.slice(0, dot) : wanted).slice(0, 200),
      );
      let n = 0;
      while (taken.has(fileNameKey(numberedFileName(wanted, n)))) n += 1;
      row.file_name = numberedFileName(wanted, n);
      row.name_key = fileNameKey(row.file_name);
      try {
        await repo.insert(row);
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new AppError('CONFLICT', 'Too many files with this name are being uploaded at once. Try again.');
  }

  /** Writes the metadata row of bytes already stored under `blobKey`; on any failure removes them. */
  async function commit({
    id,
    blobKey,
    ownerKey,
    fileName,
    inspector,
  }: {
    id: string;
    blobKey: string;
    ownerKey: string;
    fileName: string;
    inspector: Inspector;
  }): Promise<FileRecord> {
    try {
      if (inspector.size === 0) throw new AppError('BAD_REQUEST', 'The file is empty. Choose a file with content.');
      const row: FileRow = {
        id,
        owner_key: ownerKey,
        file_name: fileName,
        name_key: fileNameKey(fileName),
        size: inspector.size,
        content_type: await detectContentType(inspector.head(), fileName),
        sha256: inspector.digest(),
        blob_key: blobKey,
        upload_date: iso(clock.now()),
        // Placed in no folder yet: uploads into folders and workspaces are issue 15's phase 2.
        folder_id: null,
        workspace_id: null,
        uploaded_by: null,
      };
      await insertWithFreeName(row);
      // Concurrent uploads each checked the quota on their own: re-check with
      // this file counted, and withdraw it if together they went over.
      if ((await repo.statsByOwner(ownerKey)).sizeInBytes > limits.userQuotaBytes) {
        await repo.deleteById(id);
        throw quotaError();
      }
      return presentFile(toStoredFile(row));
    } catch (error) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw error;
    }
  }

  const service = {
    /** The limit and quota errors, for callers that check a declared length before any byte arrives (tus). */
    quotaError,
    tooLargeError,

    /** The remaining quota of an owner, in bytes (may be negative). */
    async remainingQuota(ownerKey: string): Promise<number> {
      return limits.userQuotaBytes - (await repo.statsByOwner(ownerKey)).sizeInBytes;
    },

    /**
     * Stores a stream as a new file of `ownerKey` (the caller has checked `requireActsFor(actor, ownerKey,
     * 'write')` before reading the body): counted, hashed and sniffed while it streams into the blob store; the
     * metadata row is written only after every byte is stored. On any failure nothing remains: no row, no blob.
     */
    async ingest(ownerKey: string, input: UploadInput): Promise<FileRecord> {
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
      const remaining = await service.remainingQuota(ownerKey);
      // A part can also be handed over already failed (@fastify/multipart destroys it with the error).
      if (sourceError || input.stream.destroyed) {
        const failed = sourceError ?? input.stream.errored ?? new Error('The upload stream closed early.');
        throw clientFailure(failed, failed);
      }
      if (remaining <= 0) {
        input.stream.resume();
        throw quotaError();
      }
      const inspector = inspectorWithin(remaining);
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
      return commit({ id, blobKey, ownerKey, fileName, inspector });
    },

    /**
     * Stores a complete local file (a finished resumable upload) as a new file of `ownerKey`.
     * When the blob store can take the file over (same disk), it is read once to count, hash and
     * sniff it and then moved, not copied; otherwise it is streamed in like any upload.
     */
    async ingestFile(ownerKey: string, input: { fileName: string | undefined; file: string }): Promise<FileRecord> {
      if (!blobs.adoptFile) {
        const stream = createReadStream(input.file, { highWaterMark: 1024 * 1024 });
        return service.ingest(ownerKey, { fileName: input.fileName, stream });
      }
      const fileName = sanitizeFileName(input.fileName);
      const remaining = await service.remainingQuota(ownerKey);
      if (remaining <= 0) throw quotaError();
      const inspector = inspectorWithin(remaining);
      await inspector.inspectFile(input.file);
      const id = randomUUID();
      const blobKey = fileBlobKey(id);
      await blobs.adoptFile(blobKey, input.file);
      return commit({ id, blobKey, ownerKey, fileName, inspector });
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
      const { fileCount, sizeInBytes } = await repo.statsByOwner(ownerKey);
      return { fileCount, sizeInBytes, readableSize: readableSize(sizeInBytes) };
    },

    /** A file the actor may read. */
    get: (actor: Actor, id: string): Promise<StoredFile> => authorized(actor, id, 'read'),

    /** What `sendBlob` needs to send a file's bytes. */
    blobOf: (file: StoredFile): BlobRecord => ({
      size: file.size,
      etag: `"${file.sha256}"`,
      lastModified: new Date(file.uploadDate),
      contentType: file.contentType,
      fileName: file.fileName,
      open: (range) => blobs.get(file.blobKey, range),
    }),

    async remove(actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
      const file = await authorized(actor, id, 'delete');
      // Metadata first: the file disappears at once; a blob left behind by a
      // crash here is an orphan the sweep removes.
      await repo.deleteById(id);
      await Promise.all([blobs.delete(file.blobKey), blobs.delete(thumbnailKey(file.id))]).catch((error: unknown) =>
        log?.warn({ err: error, id }, 'could not remove the bytes of a deleted file'),
      );
      return { id, deleted: true };
    },

    /** A small WebP of an image the actor may read, made on first request and kept. */
    async thumbnail(actor: Actor, id: string): Promise<{ file: StoredFile; stream: Readable }> {
      const file = await authorized(actor, id, 'read');
      return { file, stream: await thumbnails.open(file) };
    },

    /** See `maintenance.ts`. */
    sweepOrphans: (graceMs: number) => sweepOrphans({ repo, blobs, clock }, graceMs),
  };
  return service;
};

export type FilesService = ReturnType<typeof createFilesService>;
