/**
 * The files module's face: storing files (uploads, tus resumable uploads, versions), reading them, their thumbnails.
 * It announces `file.stored` once a file's content is stored and its row written; background thumbnails
 * (`createThumbnailsModule`) react to it (docs/PRODUCT.md#file-screens).
 */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store';
import type { EventBus } from '../../adapters/event-bus';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { EventEmitter, EventSubscriber } from '../../events';
import type { Clock } from '../../lib/time';
import type { AccessResolver } from '../../auth/access-facts';
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
}

export async function createFilesModule(app: FastifyInstance, deps: FilesModuleDeps) {
  const { config, folders, events } = deps;
  const repo = createFilesRepository(deps.db);
  const files = createFilesService({
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
