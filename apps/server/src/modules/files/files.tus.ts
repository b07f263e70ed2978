import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Metadata, Server, Uid, type DataStore } from '@tus/server';
import type { BlobStore } from '../../adapters/blob-store';
import type { EventBus } from '../../adapters/event-bus';
import type { Config } from '../../config';
import { canFile, requireActsFor } from '../../auth/policies/file';
import { AppError } from '../../errors';
import type { FilesService } from './files.service';
import { createRedisLocker } from './tus-redis-locker';
import { AtriumS3Store } from './tus-s3-store';
import { DurableFileStore } from './tus-file-store';
import { handleTusRequest } from './tus-web';

export const TUS_PATH = '/api/files/tus';
/** Header on the final PATCH answer naming the committed file. */
export const TUS_FILE_ID_HEADER = 'x-atrium-file-id';
const EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Upload ids in URLs: what tus's default naming makes (hex), nothing that could leave the key prefix. */
const URL_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface TusStore {
  datastore: DataStore & { read(id: string): Readable | Promise<Readable> };
  /** The upload id (data store key) named by the last segment of an upload URL. */
  idOf(urlId: string): string | undefined;
  /** The last segment of the upload URL of an id. */
  urlIdOf(id: string): string;
  /** The data file of an upload, when uploads are files on the local disk. */
  localFileOf?(id: string): string;
}

function createDataStore(config: Pick<Config, 'blobStore' | 'dataDir'>): TusStore {
  const store = config.blobStore;
  if (store.kind === 's3') {
    // Keys `<S3_PREFIX>tus/<id>` (+ `.info`, `.part`); URLs carry only `<id>`.
    const datastore = new AtriumS3Store({
      ...store,
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: EXPIRY_MS,
    });
    return {
      datastore,
      idOf: (urlId) => (URL_ID.test(urlId) ? `${datastore.keyPrefix}${urlId}` : undefined),
      urlIdOf: (id) => id.slice(datastore.keyPrefix.length),
    };
  }
  const datastore = new DurableFileStore({
    directory: path.join(config.dataDir, 'tus'),
    expirationPeriodInMilliseconds: EXPIRY_MS,
  });
  return {
    datastore,
    idOf: (urlId) => (URL_ID.test(urlId) ? urlId : undefined),
    urlIdOf: (id) => id,
    localFileOf: (id) => datastore.dataFile(id),
  };
}

/** Metadata keys Atrium accepts: visible ASCII, so no key reads as another one once trimmed. */
const METADATA_KEY = /^[!-~]+$/;

/**
 * Reads tus `Upload-Metadata` (comma-separated `key base64value` pairs) with tus's own parser, the one
 * @tus/server stores: what it refuses (a repeated key, a value that is not base64, an empty pair) and
 * keys with blanks or control characters (`\tuserId` is not `userId` to tus) are a 400.
 */
function readMetadata(header: string): Record<string, string | null> {
  let metadata: Record<string, string | null>;
  try {
    metadata = Metadata.parse(header);
  } catch {
    throw new AppError('BAD_REQUEST', 'Upload-Metadata is not valid tus metadata.');
  }
  if (!Object.keys(metadata).every((key) => METADATA_KEY.test(key))) {
    throw new AppError('BAD_REQUEST', 'Upload-Metadata keys must be printable ASCII without blanks.');
  }
  return metadata;
}

/**
 * Resumable uploads with the tus 1.0 protocol under /api/files/tus. Bytes
 * go to a tus data store (DATA_DIR/tus or the S3 bucket); when the last byte
 * arrives, the upload is streamed through the same ingest as a normal upload
 * (size, SHA-256, type, quota) into the blob store, the tus copy is removed,
 * and the final answer names the new file in `X-Atrium-File-Id`.
 * Metadata: `filename` (label) and `userId` (owner key, checked like `?userId=`). The owner is decided
 * once, when the upload is created: the checked owner key is what tus stores, and every later request
 * is checked against it. tus sees only the path the checks resolved (never the client's query string).
 *
 * Upload locks (one request at a time per upload) are in memory, or shared by
 * every instance through Redis when REDIS_URL is set.
 */
export async function registerTusRoutes(
  app: FastifyInstance,
  {
    files,
    blobs,
    bus,
    config,
  }: {
    files: FilesService;
    /** Pinged before the first upload is created, so the bucket exists (the blob store creates it). */
    blobs: Pick<BlobStore, 'ping'>;
    bus: EventBus;
    config: Pick<Config, 'blobStore' | 'dataDir' | 'uploads' | 'bus'>;
  },
) {
  const { datastore, idOf, urlIdOf, localFileOf } = createDataStore(config);
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
  /** The owner key checked for a creation request, for `onUploadCreate` to store. */
  const checkedOwners = new WeakMap<Request, string>();
  const tus = new Server({
    path: TUS_PATH,
    datastore,
    ...(locker ? { locker } : {}),
    maxSize: config.uploads.maxBytes,
    respectForwardedHeaders: false,
    namingFunction: () => idOf(Uid.rand()) ?? Uid.rand(),
    generateUrl: (_req, { path: base, id }) => `${base}/${urlIdOf(id)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath === undefined ? undefined : idOf(lastPath)),
    async onUploadCreate(req, upload) {
      const ownerKey = checkedOwners.get(req);
      if (ownerKey === undefined) throw { status_code: 500, body: 'The upload has no checked owner.' };
      // Only what Atrium reads, and the owner as checked: tus stores this and never lets a client change it.
      return { metadata: { filename: upload.metadata?.filename ?? null, userId: ownerKey } };
    },
    async onUploadFinish(_req, upload) {
      const ownerKey = upload.metadata?.userId ?? '';
      try {
        const fileName = upload.metadata?.filename ?? undefined;
        const record = localFileOf
          ? await files.ingestFile(ownerKey, { fileName, file: localFileOf(upload.id) })
          : await files.ingest(ownerKey, { fileName, stream: await datastore.read(upload.id) });
        // Finished on creation (a single-request upload): no expiry to announce, so tus must not read
        // the upload back for its Upload-Expires header (it is gone: that read would answer 404).
        delete upload.creation_date;
        return { headers: { [TUS_FILE_ID_HEADER]: record.id } };
      } catch (error) {
        const appError = error instanceof AppError ? error : undefined;
        throw {
          status_code: appError?.statusCode ?? 500,
          body: appError?.message ?? 'The upload could not be stored.',
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

  /** The owner key of an upload in progress, read from its stored metadata. */
  async function ownerOf(id: string | undefined): Promise<string | undefined> {
    if (!id) return undefined;
    try {
      return (await datastore.getUpload(id)).metadata?.userId ?? undefined;
    } catch {
      return undefined;
    }
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
        const ownerKey = typeof header === 'string' && header !== '' ? readMetadata(header).userId : undefined;
        if (!ownerKey) throw new AppError('BAD_REQUEST', 'Upload-Metadata must carry userId.');
        requireActsFor(user, ownerKey, 'write');
        bind = (tusRequest) => checkedOwners.set(tusRequest, ownerKey);
        const length = Number(request.headers['upload-length'] ?? 0);
        if (length > config.uploads.maxBytes) throw files.tooLargeError();
        if (length > (await files.remainingQuota(ownerKey))) throw files.quotaError();
        await (storeReady ??= blobs.ping().catch((error: unknown) => {
          storeReady = undefined;
          throw error;
        }));
      } else if (request.method !== 'OPTIONS') {
        const owner = await ownerOf(id);
        // Someone else's upload looks exactly like a missing one.
        if (owner === undefined || !canFile(user, 'write', { ownerKey: owner })) {
          throw new AppError('NOT_FOUND', 'Upload not found.');
        }
      }
      reply.hijack();
      await handleTusRequest(tus, request.raw, reply.raw, {
        path: id === undefined ? TUS_PATH : `${TUS_PATH}/${urlIdOf(id)}`,
        requestId: request.id,
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
  };
}
