import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { assertValidKey, BlobNotFoundError, type BlobStore } from './types';

export interface S3BlobStoreOptions {
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Key prefix inside the bucket, e.g. "atrium/". */
  prefix?: string;
  /** Multipart part size (bytes, at least 5 MiB). */
  partSize?: number;
}

/** Keys under `<prefix>tus/` belong to the tus store (resumable uploads in progress), not to this blob store. */
export const TUS_KEY_PREFIX = 'tus/';

/**
 * The S3 client settings shared by the blob store and the tus store: path-style
 * addressing, and checksums only where S3 requires them. Since 3.729 the AWS SDK
 * adds CRC32 checksums to every upload by default, sending a body of unknown
 * length as `aws-chunked` with a trailing checksum; S3-compatible servers that
 * do not decode that encoding store the chunk framing as data (seen with
 * s3rver: a 400,000-byte tus part stored as 400,098 bytes). `WHEN_REQUIRED`
 * sends plain bodies, which every S3 API accepts.
 */
export function s3ClientConfig(
  options: Pick<S3BlobStoreOptions, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'>,
): S3ClientConfig {
  return {
    region: options.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  };
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Blobs in an S3-compatible bucket (path-style addressing, so MinIO, Ceph,
 * Garage and local test servers work). Streams are written with multipart
 * uploads: the object exists only once the upload completes, and a failed
 * upload is aborted.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client(s3ClientConfig(options));
  const Bucket = options.bucket;
  const prefix = options.prefix ?? '';
  const partSize = Math.max(options.partSize ?? 8 * 1024 * 1024, 5 * 1024 * 1024);
  const keyOf = (key: string) => {
    assertValidKey(key);
    return `${prefix}${key}`;
  };
  let bucketChecked: Promise<void> | undefined;
  const ensureBucket = () =>
    (bucketChecked ??= (async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    })().catch((error: unknown) => {
      bucketChecked = undefined;
      throw error;
    }));

  return {
    kind: 's3',
    async put(key, body) {
      await ensureBucket();
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      body.on('error', (error) => counter.destroy(error));
      body.pipe(counter);
      const upload = new Upload({
        client,
        params: { Bucket, Key: keyOf(key), Body: counter },
        partSize,
        queueSize: 4,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        await upload.abort().catch(() => undefined);
        body.destroy();
        throw error;
      }
      return { size };
    },
    async get(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
        return answer.Body;
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { key, size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    list(keyPrefix) {
      return (async function* () {
        await ensureBucket();
        let token: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket, Prefix: `${prefix}${keyPrefix}`, ContinuationToken: token }),
          );
          for (const item of page.Contents ?? []) {
            if (!item.Key) continue;
            yield {
              key: item.Key.slice(prefix.length),
              size: item.Size ?? 0,
              lastModified: item.LastModified ?? new Date(0),
              etag: item.ETag,
            };
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      })();
    },
    async sweepIncomplete(before) {
      await ensureBucket();
      let removed = 0;
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: prefix }));
        for (const upload of uploads.Uploads ?? []) {
          // Resumable (tus) uploads stay open for a day on purpose; the tus store expires them.
          if (upload.Key?.startsWith(`${prefix}${TUS_KEY_PREFIX}`)) continue;
          if (upload.Key && upload.UploadId && upload.Initiated && upload.Initiated < before) {
            await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
            removed += 1;
          }
        }
      } catch (error) {
        // Some S3-compatible servers do not list multipart uploads; bucket
        // lifecycle rules clean those up instead.
        if (!(error instanceof S3ServiceException)) throw error;
      }
      return removed;
    },
    async ping() {
      await ensureBucket();
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async checkResumable() {
      await ensureBucket();
      try {
        await client.send(new ListMultipartUploadsCommand({ Bucket, MaxUploads: 1 }));
      } catch (error) {
        const reason = error instanceof Error ? error.name : String(error);
        throw new Error(
          `the S3 server cannot list multipart uploads (${reason}): resumable uploads would fail; use an S3 server that implements ListMultipartUploads and ListParts`,
        );
      }
    },
    async close() {
      client.destroy();
    },
  };
}
