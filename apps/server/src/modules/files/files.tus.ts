import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { Server, type DataStore } from '@tus/server';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { formatBytes } from './format-bytes';
import type { FilesService } from './files.service';

export const TUS_PATH = '/api/files/tus';
/** Header on the final PATCH answer naming the committed file. */
export const TUS_FILE_ID_HEADER = 'x-atrium-file-id';
const EXPIRY_MS = 24 * 60 * 60 * 1000;

function createDataStore(
  config: Pick<Config, 'blobStore' | 'dataDir'>,
): DataStore & { read(id: string): Readable | Promise<Readable> } {
  const store = config.blobStore;
  if (store.kind === 's3') {
    return new S3Store({
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: EXPIRY_MS,
      s3ClientConfig: {
        bucket: store.bucket,
        region: store.region,
        forcePathStyle: true,
        ...(store.endpoint ? { endpoint: store.endpoint } : {}),
        ...(store.accessKeyId && store.secretAccessKey
          ? { credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey } }
          : {}),
      },
    });
  }
  return new FileStore({ directory: path.join(config.dataDir, 'tus'), expirationPeriodInMilliseconds: EXPIRY_MS });
}

/** Reads tus `Upload-Metadata` (comma-separated `key base64value` pairs). */
function parseMetadata(header: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) result[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return result;
}

/**
 * Resumable uploads with the tus 1.0 protocol under /api/files/tus. Bytes
 * go to a tus data store (DATA_DIR/tus or the S3 bucket); when the last byte
 * arrives, the upload is streamed through the same ingest as a normal upload
 * (size, SHA-256, type, quota) into the blob store, the tus copy is removed,
 * and the final answer names the new file in `X-Atrium-File-Id`.
 * Metadata: `filename` (label) and `userId` (owner key, checked like `?userId=`).
 */
export async function registerTusRoutes(
  app: FastifyInstance,
  { files, config }: { files: FilesService; config: Pick<Config, 'blobStore' | 'dataDir' | 'uploads'> },
) {
  const datastore = createDataStore(config);
  const tus = new Server({
    path: TUS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: config.uploads.maxBytes,
    respectForwardedHeaders: false,
    async onUploadFinish(_req, upload) {
      const ownerKey = upload.metadata?.userId ?? '';
      try {
        const record = await files.ingest(ownerKey, {
          fileName: upload.metadata?.filename ?? undefined,
          stream: await datastore.read(upload.id),
        });
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

  /** The owner key of an upload in progress, read from its stored metadata. */
  async function ownerOf(request: FastifyRequest): Promise<string | undefined> {
    const id = request.url.split('?')[0]?.slice(TUS_PATH.length + 1) ?? '';
    if (!id) return undefined;
    try {
      return (await datastore.getUpload(decodeURIComponent(id))).metadata?.userId ?? undefined;
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
      if (request.method === 'POST') {
        const metadata = parseMetadata(request.headers['upload-metadata'] as string | undefined);
        const ownerKey = metadata.userId || user.ownerKey;
        if (!metadata.userId) throw new AppError('BAD_REQUEST', 'Upload-Metadata must carry userId.');
        files.assertActsFor(user, ownerKey);
        const length = Number(request.headers['upload-length'] ?? 0);
        if (length > config.uploads.maxBytes) {
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            `The file is larger than the upload limit of ${formatBytes(config.uploads.maxBytes)}.`,
          );
        }
        if (length > (await files.remainingQuota(ownerKey))) {
          throw new AppError(
            'QUOTA_EXCEEDED',
            `This upload would exceed the storage quota of ${formatBytes(config.uploads.userQuotaBytes)} per user. Delete some files and try again.`,
          );
        }
      } else if (request.method !== 'OPTIONS') {
        const owner = await ownerOf(request);
        // Someone else's upload looks exactly like a missing one.
        if (owner === undefined || (owner !== user.ownerKey && user.role !== 'admin')) {
          throw new AppError('NOT_FOUND', 'Upload not found.');
        }
      }
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
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
