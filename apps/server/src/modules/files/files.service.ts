import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import type { FileRecord, UserFileStats } from '@atrium/contracts';
import sharp from 'sharp';
import type { BlobStore, ByteRange } from '../../adapters/blob-store';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { isAdmin, type SessionUser } from '../auth/sessions.service';
import { detectContentType, SNIFF_BYTES } from './content-type';
import { isUniqueViolation } from '../../db/errors';
import { fileNameKey, numberedFileName, sanitizeFileName } from './file-names';
import { formatBytes, readableSize } from '@atrium/contracts/format-bytes';
import type { FileRow, FilesRepository, PageCursor } from './files.repository';

export const FILE_BLOB_PREFIX = 'files/';
export const THUMBNAIL_PREFIX = 'thumbnails/';
export const THUMBNAIL_SIZE = 256;
/** Attempts to find a free name when simultaneous uploads keep taking the one chosen. */
const NAME_ATTEMPTS = 10;
const THUMBNAIL_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export const presentFile = (row: FileRow): FileRecord => ({
  id: row.id,
  fileId: row.id,
  fileName: row.file_name,
  size: row.size,
  contentType: row.content_type,
  uploadDate: row.upload_date,
});

const encodeCursor = (row: FileRow): string =>
  Buffer.from(JSON.stringify([row.upload_date, row.id])).toString('base64url');

function decodeCursor(cursor: string): PageCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { uploadDate: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_REQUEST', 'The cursor is not valid. Start again from the first page.');
}

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

/** Counts, hashes and keeps the head of a stream while it flows; fails as soon as a limit is passed. */
class Inspector extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly check: (size: number) => AppError | undefined) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    const error = this.inspectChunk(chunk);
    if (error) callback(error);
    else callback(null, chunk);
  }

  /** Counts, checks and hashes the next bytes (not kept: the caller may reuse the buffer). */
  inspectChunk(chunk: Buffer): AppError | undefined {
    this.size += chunk.length;
    const error = this.check(this.size);
    if (error) return error;
    this.hash.update(chunk);
    if (this.headLength < SNIFF_BYTES) {
      const slice = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(slice));
      this.headLength += slice.length;
    }
    return undefined;
  }

  /**
   * Reads a whole file through `inspectChunk`, into one reused buffer: a file of a GiB read as a stream
   * allocated a thousand 1 MiB buffers and spent about a second collecting them.
   */
  async inspectFile(file: string): Promise<void> {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.allocUnsafeSlow(4 * 1024 * 1024);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return;
        const error = this.inspectChunk(buffer.subarray(0, bytesRead));
        if (error) throw error;
      }
    } finally {
      await handle.close();
    }
  }

  digest = () => this.hash.digest('hex');
  head = () => Buffer.concat(this.headChunks);
}

/** File storage rules: ownership, limits, quota, integrity, previews. */
export const createFilesService = ({ repo, blobs, clock, limits, log }: FilesServiceDeps) => {
  /** `{userId}` in a path must be the caller's own owner key; admins may act on anyone's. */
  function assertActsFor(user: SessionUser, ownerKey: string): void {
    if (user.ownerKey !== ownerKey && !isAdmin(user)) {
      throw new AppError('FORBIDDEN', 'You can only access your own files.');
    }
  }

  /** The file if the caller may see it; otherwise 404 with no hint that it exists. */
  async function findAccessible(user: SessionUser, id: string): Promise<FileRow> {
    const row = await repo.findById(id);
    if (!row || (row.owner_key !== user.ownerKey && !isAdmin(user))) throw new AppError('FILE_NOT_FOUND');
    return row;
  }

  const quotaError = () =>
    new AppError(
      'QUOTA_EXCEEDED',
      `This upload would exceed the storage quota of ${formatBytes(limits.userQuotaBytes)} per user. Delete some files and try again.`,
    );
  const tooLargeError = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${formatBytes(limits.maxBytes)}.`);

  /** An inspector that fails once the upload passes the upload limit or the owner's remaining quota. */
  const inspectorWithin = (remaining: number) =>
    new Inspector((size) => (size > limits.maxBytes ? tooLargeError() : size > remaining ? quotaError() : undefined));

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
      };
      await insertWithFreeName(row);
      // Concurrent uploads each checked the quota on their own: re-check with
      // this file counted, and withdraw it if together they went over.
      if ((await repo.statsByOwner(ownerKey)).sizeInBytes > limits.userQuotaBytes) {
        await repo.deleteById(id);
        throw quotaError();
      }
      return presentFile(row);
    } catch (error) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw error;
    }
  }

  const service = {
    assertActsFor,

    /**
     * Streams an upload into the blob store while counting, hashing and
     * sniffing it; the metadata row is written only after every byte is
     * stored. On any failure nothing remains: no row and no blob.
     */
    async upload(user: SessionUser, ownerKey: string, input: UploadInput): Promise<FileRecord> {
      assertActsFor(user, ownerKey);
      return service.ingest(ownerKey, input);
    },

    /** The remaining quota of an owner, in bytes (may be negative). */
    async remainingQuota(ownerKey: string): Promise<number> {
      return limits.userQuotaBytes - (await repo.statsByOwner(ownerKey)).sizeInBytes;
    },

    /** Stores a stream as a new file of `ownerKey` (access already checked by the caller). */
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
      const blobKey = `${FILE_BLOB_PREFIX}${id}`;
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
      const blobKey = `${FILE_BLOB_PREFIX}${id}`;
      await blobs.adoptFile(blobKey, input.file);
      return commit({ id, blobKey, ownerKey, fileName, inspector });
    },

    async list(user: SessionUser, ownerKey: string, page: { limit?: number | undefined; cursor?: string | undefined }) {
      assertActsFor(user, ownerKey);
      const limit = page.limit ?? 1000;
      const rows = await repo.listByOwner(ownerKey, limit + 1, page.cursor ? decodeCursor(page.cursor) : undefined);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return {
        files: items.map(presentFile),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : undefined,
      };
    },

    async stats(user: SessionUser, ownerKey: string): Promise<UserFileStats> {
      assertActsFor(user, ownerKey);
      const { fileCount, sizeInBytes } = await repo.statsByOwner(ownerKey);
      return { fileCount, sizeInBytes, readableSize: readableSize(sizeInBytes) };
    },

    async get(user: SessionUser, id: string): Promise<FileRow> {
      return findAccessible(user, id);
    },

    async openContent(row: FileRow, range?: ByteRange): Promise<Readable> {
      return blobs.get(row.blob_key, range);
    },

    async remove(user: SessionUser, id: string): Promise<{ id: string; deleted: true }> {
      const row = await findAccessible(user, id);
      // Metadata first: the file disappears at once; a blob left behind by a
      // crash here is an orphan the start-up sweep removes.
      await repo.deleteById(id);
      await Promise.all([blobs.delete(row.blob_key), blobs.delete(`${THUMBNAIL_PREFIX}${row.id}.webp`)]).catch(
        (error: unknown) => log?.warn({ err: error, id }, 'could not remove the bytes of a deleted file'),
      );
      return { id, deleted: true };
    },

    /** A small WebP of an image, made on first request and kept in the blob store. */
    async thumbnail(user: SessionUser, id: string): Promise<{ row: FileRow; stream: Readable }> {
      const row = await findAccessible(user, id);
      if (!THUMBNAIL_TYPES.has(row.content_type)) {
        throw new AppError('NOT_FOUND', 'There is no thumbnail for this kind of file.');
      }
      const key = `${THUMBNAIL_PREFIX}${row.id}.webp`;
      if (!(await blobs.stat(key))) {
        const source = await blobs.get(row.blob_key);
        const transformer = sharp({ limitInputPixels: 100_000_000, animated: false })
          .rotate()
          .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 75 });
        source.on('error', (error) => transformer.destroy(error));
        try {
          await blobs.put(key, source.pipe(transformer));
        } catch (error) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Could not make a thumbnail of this image.', { cause: error });
        }
      }
      return { row, stream: await blobs.get(key) };
    },

    /**
     * Removes what an interrupted process may have left: incomplete writes
     * and blobs with no metadata row, older than `graceMs` (so uploads in
     * flight on other instances are left alone).
     */
    async sweepOrphans(graceMs: number): Promise<{ incomplete: number; orphans: number }> {
      const before = new Date(clock.now().getTime() - graceMs);
      const incomplete = await blobs.sweepIncomplete(before);
      let orphans = 0;
      for await (const blob of blobs.list(FILE_BLOB_PREFIX)) {
        if (blob.lastModified >= before) continue;
        if (!(await repo.blobKeyExists(blob.key))) {
          await blobs.delete(blob.key);
          orphans += 1;
        }
      }
      for await (const blob of blobs.list(THUMBNAIL_PREFIX)) {
        if (blob.lastModified >= before) continue;
        const id = blob.key.slice(THUMBNAIL_PREFIX.length).replace(/\.webp$/, '');
        if (!(await repo.findById(id))) {
          await blobs.delete(blob.key);
          orphans += 1;
        }
      }
      return { incomplete, orphans };
    },
  };
  return service;
};

export type FilesService = ReturnType<typeof createFilesService>;
