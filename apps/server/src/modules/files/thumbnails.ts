import { THUMBNAIL_TYPES } from '@atrium/contracts/texts';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { BlobStore } from '../../adapters/blob-store';
import { AppError } from '../../errors';
import { thumbnailKey, type StoredFile } from './stored-file';

export const THUMBNAIL_SIZE = 256;
/** The content types a thumbnail is made of (shared with the web, which asks only for these). */
const THUMBNAILED: ReadonlySet<string> = new Set(THUMBNAIL_TYPES);

/** Small WebP pictures of images, made on first request with sharp and kept in the blob store. */
export const createThumbnails = (blobs: BlobStore) => ({
  async open(file: StoredFile): Promise<Readable> {
    if (!THUMBNAILED.has(file.contentType)) {
      throw new AppError('NOT_FOUND', 'There is no thumbnail for this kind of file.');
    }
    const key = thumbnailKey(file.id);
    if (!(await blobs.stat(key))) {
      const source = await blobs.get(file.blobKey);
      const transformer = sharp({ limitInputPixels: 100_000_000, animated: false })
        .rotate()
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 });
      source.on('error', (error) => transformer.destroy(error));
      try {
        await blobs.put(key, source.pipe(transformer));
      } catch (error) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Could not make a thumbnail of this image.', { cause: error });
      }
    }
    return blobs.get(key);
  },
});
