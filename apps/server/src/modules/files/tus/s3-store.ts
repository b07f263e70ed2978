import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, type KvStore } from '@tus/server';
import { s3ClientConfig, TUS_KEY_PREFIX, type S3BlobStoreOptions } from '../../../adapters/blob-store/s3-blob-store';

/**
 * No metadata cache: every request reads the upload's `.info` object, so an
 * upload finished or removed through one instance is seen as such by every
 * other (the default in-memory cache would keep answering for it).
 */
const noCache: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

const isS3Error = (error: unknown, names: string[]): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (('name' in error && names.includes(String(error.name))) || ('Code' in error && names.includes(String(error.Code))));

/**
 * @tus/s3-store with what Atrium needs on top:
 * - upload ids (= object keys) live under `<S3_PREFIX>tus/`, beside the blob store's keys;
 * - `remove()` also cleans up a finished upload: S3 cannot abort a completed multipart
 *   upload (it answers NoSuchUpload), and the stock store then gives up, leaving the
 *   assembled object and its `.info` in the bucket;
 * - expiry only looks at multipart uploads under the tus prefix, so a shared bucket's
 *   other uploads (or the blob store's) are never aborted by it.
 */
export class AtriumS3Store extends S3Store {
  readonly keyPrefix: string;

  constructor(options: S3BlobStoreOptions & { partSize: number; expirationPeriodInMilliseconds: number }) {
    super({
      partSize: options.partSize,
      expirationPeriodInMilliseconds: options.expirationPeriodInMilliseconds,
      // Expiry is decided from the multipart upload's start, not from object tags.
      useTags: false,
      cache: noCache,
      s3ClientConfig: { bucket: options.bucket, ...s3ClientConfig(options) },
    });
    this.keyPrefix = `${options.prefix ?? ''}${TUS_KEY_PREFIX}`;
  }

  override async remove(id: string): Promise<void> {
    let uploadId: string;
    try {
      uploadId = (await this.getMetadata(id))['upload-id'];
    } catch (error) {
      if (isS3Error(error, ['NotFound', 'NoSuchKey'])) throw ERRORS.FILE_NOT_FOUND;
      throw error;
    }
    try {
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId });
    } catch (error) {
      // Completed (or already aborted): the objects below are what is left.
      if (!isS3Error(error, ['NoSuchUpload', 'NoSuchKey', 'NotFound'])) throw error;
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
  }

  override async deleteExpired(): Promise<number> {
    const expiry = this.getExpiration();
    if (expiry === 0) return 0;
    let deleted = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    do {
      const page = await this.client.listMultipartUploads({
        Bucket: this.bucket,
        Prefix: this.keyPrefix,
        KeyMarker,
        UploadIdMarker,
      });
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated) continue;
        if (Date.now() <= upload.Initiated.getTime() + expiry) continue;
        await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId });
        await this.client.deleteObjects({
          Bucket: this.bucket,
          Delete: {
            Objects: [{ Key: this.infoKey(upload.Key) }, { Key: this.partKey(upload.Key, true) }],
            Quiet: true,
          },
        });
        deleted += 1;
      }
      KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (KeyMarker);
    return deleted;
  }
}
