import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Server, Uid } from '@tus/server';
import { UploadConflict } from '@atrium/contracts';
import type { BlobStore } from '../../../adapters/blob-store';
import type { EventBus } from '../../../adapters/event-bus';
import type { Config } from '../../../config';
import { canFile } from '../../../auth/policies/file';
import type { UserActor } from '../../../auth/actor';
import { AppError } from '../../../errors';
import type { FilesService } from '../files.service';
import type { UploadTarget } from '../stored-file';
import { createRedisLocker } from './redis-locker';
import { createDataStore } from './data-store';
import { readMetadata } from './metadata';
import { handleTusRequest, logTusFailure } from './web';

export const TUS_PATH = '/api/files/tus';
/** Header on the final PATCH answer naming the committed file. */
const TUS_FILE_ID_HEADER = 'x-atrium-file-id';

/**
 * Resumable uploads with the tus 1.0 protocol under /api/files/tus. Bytes
 * go to a tus data store (DATA_DIR/tus or the S3 bucket); when the last byte
 * arrives, the upload is streamed through the same ingest as a normal upload
 * (size, SHA-256, type, quota) into the blob store, the tus copy is removed,
 * and the final answer names the new file in `X-Atrium-File-Id`.
 * Metadata: `filename` (label) and where the file goes, as for a multipart upload: `folderId`, `workspaceId` or
 * `userId` (owner key; the caller's own when none is named). The place is decided and checked once, when the
 * upload is created: tus stores the checked target and who created the upload, and only that user may continue
 * it. tus sees only the path the checks resolved (never the client's query string).
 *
 * Upload locks (one request at a time per upload) are in memory, or shared by
 * every instance through Redis when REDIS_URL is set.
 */
export async function registerTusRoutes(
  app: FastifyInstance,
  {
    files,
    uploadTarget,
    blobs,
    bus,
    config,
  }: {
    files: FilesService;
    /** Where an upload goes, checked when it is created (`FoldersService.uploadTarget`). */
    uploadTarget: (
      actor: UserActor,
      place: { userId?: string | undefined; workspaceId?: string | undefined; folderId?: string | undefined },
    ) => Promise<UploadTarget>;
    /** Pinged before the first upload is created, so the bucket exists (the blob store creates it). */
    blobs: Pick<BlobStore, 'ping'>;
    bus: EventBus;
    config: Pick<Config, 'blobStore' | 'dataDir' | 'uploads' | 'bus'>;
  },
) {
  const store = createDataStore(config);
  const { datastore, idOf, urlIdOf, localFileOf, inspectedOf } = store;
  const locker = config.bus.redisUrl
    ? await createRedisLocker({
        url: config.bus.redisUrl,
        keyPrefix: config.bus.channelPrefix,
        bus,
        onError: (error) => app.log.warn({ err: error }, 'tus lock error'),
      })
    : undefined;
  if (locker) app.addHook('onClose', async () => locker.close());
  let storeReady: Promise<void> | undefined;
  /** The target checked for a creation request, for `onUploadCreate` to store. */
  const checkedTargets = new WeakMap<Request, UploadTarget & { onConflict?: UploadConflict | undefined }>();
  const tus = new Server({
    path: TUS_PATH,
    datastore,
    ...(locker ? { locker } : {}),
    maxSize: config.uploads.maxBytes,
    respectForwardedHeaders: false,
    namingFunction: () => idOf(Uid.rand()) ?? Uid.rand(),
    generateUrl: (_req, { path: base, id }) => `${base}/${urlIdOf(id)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath === undefined ? undefined : idOf(lastPath)),
    // Every 5xx is logged with its request id and cause (docs/DEPLOY.md, "Monitoring"); the answer stays generic.
    onResponseError: (req, error) => {
      logTusFailure(req, error);
      return undefined;
    },
    async onUploadCreate(req, upload) {
      const target = checkedTargets.get(req);
      if (target === undefined) throw { status_code: 500, body: 'The upload has no checked target.' };
      // Only what Atrium reads, and the target as checked: tus stores this and never lets a client change it.
      return {
        metadata: {
          filename: upload.metadata?.filename ?? null,
          userId: target.ownerKey,
          folderId: target.folderId,
          ...(target.workspaceId === null ? {} : { workspaceId: target.workspaceId }),
          ...(target.uploadedBy === null ? {} : { uploadedBy: target.uploadedBy }),
          ...(target.onConflict === undefined ? {} : { onConflict: target.onConflict }),
        },
      };
    },
    async onUploadFinish(_req, upload) {
      const target = targetOf(upload.metadata);
      try {
        if (!target) throw new AppError('BAD_REQUEST', 'The upload has no target folder. Start it again.');
        const fileName = upload.metadata?.filename ?? undefined;
        const conflict = UploadConflict.safeParse(upload.metadata?.onConflict);
        const onConflict = conflict.success ? conflict.data : undefined;
        const record = localFileOf
          ? await files.ingestFile(target, {
              fileName,
              file: localFileOf(upload.id),
              onConflict,
              inspected: upload.size === undefined ? undefined : inspectedOf?.(upload.id, upload.size),
            })
          : await files.ingest(target, { fileName, stream: await datastore.read(upload.id), onConflict });
        // Finished on creation (a single-request upload): no expiry to announce, so tus must not read
        // the upload back for its Upload-Expires header (it is gone: that read would answer 404).
        delete upload.creation_date;
        return { headers: { [TUS_FILE_ID_HEADER]: record.id } };
      } catch (error) {
        const appError = error instanceof AppError ? error : undefined;
        throw {
          status_code: appError?.statusCode ?? 500,
          body: appError?.message ?? 'The upload could not be stored.',
          cause: appError?.cause ?? error,
        };
      } finally {
        await datastore.remove(upload.id).catch(() => undefined);
      }
    },
  });

  /** The upload id named by the request's path (the route parameter; never the query string). */
  const uploadIdOf = (request: FastifyRequest): string | undefined => {
    const { uploadId } = request.params as { uploadId?: string };
    return uploadId === undefined ? undefined : idOf(uploadId);
  };

  /** The checked target stored with an upload (undefined for metadata without one). */
  function targetOf(metadata: Record<string, string | null> | undefined): UploadTarget | undefined {
    const ownerKey = metadata?.userId;
    const folderId = metadata?.folderId;
    if (!ownerKey || !folderId) return undefined;
    return { ownerKey, folderId, workspaceId: metadata.workspaceId || null, uploadedBy: metadata.uploadedBy || null };
  }

  /** The stored metadata of an upload in progress. */
  async function metadataOf(id: string | undefined): Promise<Record<string, string | null> | undefined> {
    if (!id) return undefined;
    try {
      return (await datastore.getUpload(id)).metadata ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether `user` may continue an upload: its creator (or, for one created before targets, its owner). */
  function continues(user: UserActor, metadata: Record<string, string | null> | undefined): boolean {
    if (!metadata?.userId) return false;
    if (metadata.uploadedBy) return metadata.uploadedBy === user.id;
    return canFile(user, 'write', { ownerKey: metadata.userId });
  }

  await app.register(async (scope) => {
    // tus reads the raw request body itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await request.requireUser();
      const id = uploadIdOf(request);
      let bind: ((tusRequest: Request) => void) | undefined;
      if (request.method === 'POST') {
        const header = request.headers['upload-metadata'];
        const metadata = typeof header === 'string' && header !== '' ? readMetadata(header) : {};
        const place = (key: string) => metadata[key] || undefined;
        const checked = await uploadTarget(user, {
          userId: place('userId'),
          workspaceId: place('workspaceId'),
          folderId: place('folderId'),
        });
        // What to do when the name is taken: `?onConflict=` on the creation request, else the metadata's.
        const parsed = UploadConflict.safeParse(
          (request.query as { onConflict?: unknown }).onConflict ?? place('onConflict'),
        );
        if (!parsed.success && (request.query as { onConflict?: unknown }).onConflict !== undefined) {
          throw new AppError('BAD_REQUEST', 'onConflict must be replace, rename or fail.');
        }
        const target = { ...checked, onConflict: parsed.success ? parsed.data : undefined };
        await files.failIfTaken(target, metadata.filename ?? undefined, target.onConflict);
        bind = (tusRequest) => checkedTargets.set(tusRequest, target);
        const length = Number(request.headers['upload-length'] ?? 0);
        if (length > config.uploads.maxBytes) throw files.tooLargeError();
        if (length > (await files.remainingQuota(target))) throw await files.quotaErrorOf(target);
        await (storeReady ??= blobs.ping().catch((error: unknown) => {
          storeReady = undefined;
          throw error;
        }));
      } else if (request.method !== 'OPTIONS') {
        // Someone else's upload looks exactly like a missing one.
        if (!continues(user, await metadataOf(id))) {
          throw new AppError('NOT_FOUND', 'Upload not found.');
        }
      }
      reply.hijack();
      await handleTusRequest(tus, request.raw, reply.raw, {
        path: id === undefined ? TUS_PATH : `${TUS_PATH}/${urlIdOf(id)}`,
        requestId: request.id,
        log: request.log,
        ...(bind ? { bind } : {}),
      });
    };
    // Who may call these routes (the access-control matrix reads it); typed loosely
    // because Fastify's context config type does not declare `access` on this branch.
    const access: Record<string, unknown> = { access: 'user' };
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    for (const method of ['POST', 'OPTIONS'] as const) {
      typed.route({ method, url: TUS_PATH, config: access, schema: { hide: true }, handler });
    }
    for (const method of ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      typed.route({ method, url: `${TUS_PATH}/:uploadId`, config: access, schema: { hide: true }, handler });
    }
  });

  return {
    /** Removes tus uploads abandoned for longer than their expiry. */
    sweepExpired: () => tus.cleanUpExpiredUploads().catch(() => 0),
    /** Bytes held by unfinished resumable uploads on this disk; null where the store cannot tell (S3). */
    pendingBytes: async (): Promise<number | null> => (store.pendingBytes ? store.pendingBytes() : null),
  };
}
