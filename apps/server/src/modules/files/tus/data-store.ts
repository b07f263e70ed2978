import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';
import type { Config } from '../../../config';
import type { StreamInspector } from '../../../lib/stream-inspector';
import { DurableFileStore } from './file-store';
import { AtriumS3Store } from './s3-store';

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
  /** What was counted and hashed of a local upload's `size` bytes while they were written (else undefined). */
  inspectedOf?(id: string, size: number): StreamInspector | undefined;
  /** Bytes received by unfinished uploads, when they are files on the local disk (S3 keeps them as parts). */
  pendingBytes?(): Promise<number>;
}

/** The bytes of the data files in `directory` (tus's `.json` records apart); 0 when it does not exist yet. */
async function dataBytesIn(directory: string): Promise<number> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.endsWith('.json')) continue;
    total += await stat(path.join(directory, entry.name)).then(
      (info) => info.size,
      () => 0,
    );
  }
  return total;
}

/** The tus data store of the configured blob store: the S3 bucket, or files under `DATA_DIR/tus`. */
export function createDataStore(config: Pick<Config, 'blobStore' | 'dataDir'>): TusStore {
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
  const directory = path.join(config.dataDir, 'tus');
  const datastore = new DurableFileStore({ directory, expirationPeriodInMilliseconds: EXPIRY_MS });
  return {
    datastore,
    idOf: (urlId) => (URL_ID.test(urlId) ? urlId : undefined),
    urlIdOf: (id) => id,
    localFileOf: (id) => datastore.dataFile(id),
    inspectedOf: (id, size) => datastore.takeInspected(id, size),
    pendingBytes: () => dataBytesIn(directory),
  };
}
