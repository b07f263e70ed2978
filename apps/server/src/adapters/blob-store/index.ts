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
