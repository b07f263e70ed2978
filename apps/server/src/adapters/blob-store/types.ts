import type { Readable } from 'node:stream';

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobInfo {
  key: string;
  size: number;
  lastModified: Date;
  /** The object's ETag, where the store has one (S3). */
  etag?: string;
}

/**
 * Where file bytes live. Keys are relative, `/`-separated, and made only of
 * `[A-Za-z0-9._-]` segments (never user input such as a file name).
 *
 * `put` is atomic: the object under `key` either holds every byte of `body`
 * or does not exist (fs: temp file + fsync + rename; s3: multipart upload
 * completed only at the end, aborted on failure).
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  put(key: string, body: Readable): Promise<{ size: number }>;
  /**
   * Moves a complete local file (for example a finished resumable upload) under `key`, atomically
   * and durably, without copying it when it is on the same file system. The file is gone afterwards.
   * Only stores on the local disk have it.
   */
  adoptFile?(key: string, file: string): Promise<{ size: number }>;
  /** The object's bytes (or one range of them); throws BlobNotFoundError when missing. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and modification time, or null when missing. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Removes the object; missing objects are not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** Removes incomplete writes (temp files, unfinished multipart uploads) started before `before`. */
  sweepIncomplete(before: Date): Promise<number>;
  /** Throws when the store cannot be reached or written. */
  ping(): Promise<void>;
  /**
   * Throws, naming the reason, when resumable uploads could not work on this store (an S3 server that cannot list
   * multipart uploads); the readiness probe `resumableUploads` (docs/DEPLOY.md, "Monitoring").
   */
  checkResumable(): Promise<void>;
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Rejects keys that could escape the store's root (.., absolute paths, odd characters). */
export function assertValidKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}
