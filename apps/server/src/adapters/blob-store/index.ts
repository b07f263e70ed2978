/**
 * Where file bytes live: `BlobStore` (`types.ts`: `put` a stream atomically, `get` whole or a byte range, `stat`,
 * `delete`, `list`, `sweepIncomplete`, `ping`; on the fs store also `adoptFile`, which moves a finished tus upload in
 * instead of writing it twice), chosen by `BLOB_STORE`. `fs-blob-store.ts` (default): `DATA_DIR/blobs/<key>`, written
 * to a temporary part, fsync'd and renamed into place, with background `fdatasync` while a large file streams in.
 * `s3-blob-store.ts`: @aws-sdk/client-s3, path-style, multipart uploads through @aws-sdk/lib-storage (the object
 * appears only when complete); `s3ClientConfig()` is the one S3 client configuration (also the tus store's; checksums
 * only when required, which S3-compatible servers need). `blob-store.int.test.ts` runs one suite against both.
 * Registered as the `blobStore` probe of `/readyz`.
 */
import path from 'node:path';
import type { Config } from '../../config';
import { createFsBlobStore } from './fs-blob-store';
import { createS3BlobStore } from './s3-blob-store';
import type { BlobStore } from './types';

export * from './types';
export { createFsBlobStore } from './fs-blob-store';
export { createS3BlobStore } from './s3-blob-store';

/** The blob store chosen by configuration (BLOB_STORE). */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'dataDir'>): BlobStore {
  const store = config.blobStore;
  if (store.kind === 's3') return createS3BlobStore(store);
  return createFsBlobStore(path.join(config.dataDir, 'blobs'));
}
