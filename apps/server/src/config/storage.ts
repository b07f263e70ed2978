import { z } from 'zod';
import { bytes, documented } from './env';

// File bytes: the upload limits and quotas, and where the bytes live (DATA_DIR or an S3 bucket).

/** Upload size and quotas. */
export const uploadsEnv = {
  MAX_UPLOAD_BYTES: documented(bytes.default(1024 ** 3), 'largest single file (over it: 413)', '1 GiB'),
  USER_QUOTA_BYTES: documented(
    bytes.default(10 * 1024 ** 3),
    'total bytes one owner may store (over it: 413)',
    '10 GiB',
  ),
  WORKSPACE_QUOTA_BYTES: documented(
    bytes.default(10 * 1024 ** 3),
    'total bytes one workspace may store (its files and folders; shown as `quotaBytes` by `GET /api/workspaces/{id}`)',
    '10 GiB',
  ),
};

/** The blob store, and the sweep of what an interrupted write left in it. */
export const storageEnv = {
  BLOB_STORE: z.enum(['fs', 's3']).default('fs').describe('where file bytes live: `fs` (`DATA_DIR/blobs`) or `s3`'),
  S3_ENDPOINT: documented(
    z.url().optional(),
    "S3-compatible endpoint (path-style: AWS, MinIO, Ceph, Garage…). Requests carry checksums only where S3 requires them (AWS SDK `WHEN_REQUIRED`), so servers that do not decode the SDK's default `aws-chunked` uploads store the right bytes",
    "AWS's endpoint for `S3_REGION`",
  ),
  S3_BUCKET: documented(
    z.string().min(1).optional(),
    'bucket name (required with `BLOB_STORE=s3`); created if missing',
    'unset',
  ),
  S3_REGION: z.string().min(1).default('us-east-1').describe('bucket region'),
  S3_ACCESS_KEY_ID: documented(
    z.string().min(1).optional(),
    'S3 access key id; set both keys or neither',
    "the AWS SDK's default chain",
  ),
  S3_SECRET_ACCESS_KEY: documented(
    z.string().min(1).optional(),
    'S3 secret access key; set both keys or neither',
    "the AWS SDK's default chain",
  ),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\/)*$/, 'must be empty or end with /')
    .default('')
    .describe('key prefix inside the bucket, e.g. `atrium/`'),
  UPLOAD_ORPHAN_GRACE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(60)
    .describe(
      'the sweep (at start-up, then every half of this, between 1 minute and 1 hour) removes unfinished writes and blobs without a file record older than this',
    ),
};

type StorageEnv = z.infer<z.ZodObject<typeof uploadsEnv & typeof storageEnv>>;

export type UploadsConfig = {
  maxBytes: number;
  userQuotaBytes: number;
  workspaceQuotaBytes: number;
  orphanGraceMs: number;
};

export type BlobStoreConfig =
  | { kind: 'fs' }
  | {
      kind: 's3';
      endpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      prefix: string;
    };

/** Lists what is missing in the S3 settings. */
export function checkStorage(env: StorageEnv, problems: string[]): void {
  if (env.BLOB_STORE === 's3' && !env.S3_BUCKET) problems.push('S3_BUCKET: required when BLOB_STORE=s3');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
}

export function resolveUploads(env: StorageEnv): UploadsConfig {
  return {
    maxBytes: env.MAX_UPLOAD_BYTES,
    userQuotaBytes: env.USER_QUOTA_BYTES,
    workspaceQuotaBytes: env.WORKSPACE_QUOTA_BYTES,
    orphanGraceMs: env.UPLOAD_ORPHAN_GRACE_MINUTES * 60_000,
  };
}

export function resolveBlobStore(env: StorageEnv): BlobStoreConfig {
  return env.BLOB_STORE === 's3'
    ? {
        kind: 's3',
        endpoint: env.S3_ENDPOINT,
        bucket: env.S3_BUCKET ?? '',
        region: env.S3_REGION,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        prefix: env.S3_PREFIX,
      }
    : { kind: 'fs' };
}
