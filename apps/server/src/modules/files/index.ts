/**
 * The files module's face: storing files (uploads, tus resumable uploads, versions), reading them, their thumbnails.
 * It announces `file.stored` once a file's content is stored and its row written; background thumbnails
 * (`createThumbnailsModule`) react to it (docs/PRODUCT.md#file-screens).
 *
 * How it holds them: `files.service.ts` composes one `FilesService` from rooms over `files.core.ts` (what they share:
 * deps, messages, `FilePlacement`, `ChangeContext`): `files.ingest.ts` (multipart and tus uploads and file drops;
 * count, SHA-256 and content sniffing (`content-type.ts`) while the bytes flow into the blob store, then the row; any
 * failure deletes the blob; `storeNewContent`, the one place a file gets new content: replace and version restore),
 * `files.versions.ts` (older contents in `file_versions`, pruned beyond `FILE_VERSIONS_KEPT`), `files.queries.ts`
 * (pages with the keyset `cursor.ts`, stats, bytes through `lib/http/send-blob.ts`, thumbnails, `readableWithRole`),
 * `files.changes.ts` (rename, move, trash, `restoreInto`, purge) and `quota.ts` (a workspace's `WORKSPACE_QUOTA_BYTES`,
 * a person's own quota or `USER_QUOTA_BYTES`; live, trashed and version bytes count). `files.repository.ts` holds the
 * queries, `stored-file.ts` the domain record and blob keys (`files/<id>`, thumbnails keyed by content),
 * `files.presenter.ts` the wire shape.
 *
 * Where an upload goes is asked of the spaces module (`FilePlacement.uploadTarget`: `write` on the folder); who may do
 * what is the file policy's (`auth/policies/file.ts`). A name taken in the folder becomes `name (1).ext`
 * (case-insensitive, the unique index settling races) unless the upload asks to replace or fail (`?onConflict=`,
 * docs/PRODUCT.md#trash-and-versions).
 *
 * `tus/`: resumable uploads on @tus/server (`tus.routes.ts`; `web.ts` feeds tus's web API the socket's own buffers;
 * `file-store.ts` and `s3-store.ts` extend the stock stores, `data-store.ts` chooses one and reports `pendingBytes`;
 * `redis-locker.ts` shares upload locks between instances with `REDIS_URL`); a finished upload goes through the same
 * ingest.
 *
 * `thumbnails.ts` is the one thumbnail pipeline (images; a PDF's first page by poppler, a video frame by ffmpeg; sharp
 * to WebP; engines missing → 404, never 5xx); `thumbnail-jobs.ts` makes them in the background as the `thumbnail` kind
 * of the job queue (`jobs/queue.ts`). `maintenance.ts` `sweepOrphans` (the `uploads.leftovers` job) removes blobs no
 * row names. `files.file-source.ts` is the `FileSource` the AI module reads stored files through
 * (docs/PRODUCT.md#stored-files-on-the-ai-screens).
 */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store';
import type { EventBus } from '../../adapters/event-bus';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { EventEmitter, EventSubscriber } from '../../events';
import type { Clock } from '../../lib/time';
import type { AccessResolver } from '../../auth/access-facts';
import type { WriteLocks } from '../../auth/policies/write-lock';
import { createFilesFileSource } from './files.file-source';
import { createFilesRepository } from './files.repository';
import { registerFileRoutes, type FilesRouteOptions } from './files.routes';
import type { FilePlacement } from './files.core';
import { createFilesService, type FilesService } from './files.service';
import { registerTusRoutes } from './tus/tus.routes';
import type { StoredFile } from './stored-file';
import { createThumbnailJobs, type ThumbnailJobsDeps } from './thumbnail-jobs';

export interface FilesModuleDeps {
  db: Db;
  blobs: BlobStore;
  bus: EventBus;
  config: Pick<Config, 'blobStore' | 'dataDir' | 'uploads' | 'bus' | 'versions'>;
  clock: Clock;
  access: AccessResolver;
  /** The folders service: where a file may go, and where an upload lands. */
  folders: FilePlacement & Pick<FilesRouteOptions, 'uploadTarget'>;
  /** A person's own quota (set by an admin), or null for the default. */
  quotas: { quotaOf(ownerKey: string): Promise<number | null> };
  log: { warn(details: object, message: string): void };
  events: EventEmitter;
  /** WebDAV locks every change of a file honours (renames, moves, trashing, replacing uploads, version restores). */
  writeLocks: WriteLocks;
}

export async function createFilesModule(app: FastifyInstance, deps: FilesModuleDeps) {
  const { config, folders, events } = deps;
  const repo = createFilesRepository(deps.db);
  const files = createFilesService({
    writeLocks: deps.writeLocks,
    repo,
    blobs: deps.blobs,
    clock: deps.clock,
    limits: config.uploads,
    access: deps.access,
    placement: folders,
    quotas: deps.quotas,
    versionsKept: config.versions.kept,
    log: deps.log,
    events,
  });
  await registerFileRoutes(app, {
    files,
    uploadTarget: folders.uploadTarget,
    maxUploadBytes: config.uploads.maxBytes,
    events,
  });
  const tus = await registerTusRoutes(app, {
    files,
    uploadTarget: folders.uploadTarget,
    blobs: deps.blobs,
    bus: deps.bus,
    config,
  });
  return {
    files,
    filesRepo: repo,
    tus,
    /** Reading a stored file by id with the file read rule (the AI services). */
    fileSource: createFilesFileSource(files),
    /** Reading stored files for background work (analysis). */
    reader: {
      get: files.get,
      findUnchecked: files.findUnchecked,
      read: (file: StoredFile) => files.blobOf(file).open(),
    },
  };
}

export interface ThumbnailsModuleDeps extends Omit<ThumbnailJobsDeps, 'files'> {
  files: FilesService;
  events: EventSubscriber;
  /** `THUMBNAILS_IN_BACKGROUND`: off, thumbnails are made on first request only. */
  inBackground: boolean;
}

/**
 * Thumbnails of new uploads, made in the background: reacts to `file.stored` (enqueues the file's thumbnail).
 * Built after the modules that react to a stored file first (analysis).
 */
export function createThumbnailsModule({ events, inBackground, ...deps }: ThumbnailsModuleDeps) {
  if (!inBackground) return;
  const jobs = createThumbnailJobs(deps);
  events.on('file.stored', 'thumbnails', ({ file }) => jobs.onStored(file));
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { presentFile } from './files.presenter';
export { workspaceUsedBytes } from './files.repository';
export type { FileRow, FilesRepository } from './files.repository';
export type { FilesService, UploadInput } from './files.service';
export { thumbnailKey, toStoredFile } from './stored-file';
export type { StoredFile, UploadTarget } from './stored-file';
