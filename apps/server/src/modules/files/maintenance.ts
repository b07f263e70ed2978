import type { BlobStore } from '../../adapters/blob-store';
import type { Clock } from '../../lib/time';
import type { FilesRepository } from './files.repository';
import { FILE_BLOB_PREFIX, THUMBNAIL_PREFIX, thumbnailSource } from './stored-file';

/**
 * Removes what an interrupted process may have left: incomplete writes and blobs with no metadata row, older than
 * `graceMs` (so uploads in flight on other instances are left alone).
 */
export async function sweepOrphans(
  { repo, blobs, clock }: { repo: FilesRepository; blobs: BlobStore; clock: Clock },
  graceMs: number,
): Promise<{ incomplete: number; orphans: number }> {
  const before = new Date(clock.now().getTime() - graceMs);
  const incomplete = await blobs.sweepIncomplete(before);
  let orphans = 0;
  for await (const blob of blobs.list(FILE_BLOB_PREFIX)) {
    if (blob.lastModified >= before) continue;
    if (!(await repo.blobKeyExists(blob.key))) {
      await blobs.delete(blob.key);
      orphans += 1;
    }
  }
  for await (const blob of blobs.list(THUMBNAIL_PREFIX)) {
    if (blob.lastModified >= before) continue;
    // A thumbnail is kept while the content it shows is (a file's, in the trash or not, or a version's).
    if (!(await repo.blobKeyExists(thumbnailSource(blob.key)))) {
      await blobs.delete(blob.key);
      orphans += 1;
    }
  }
  return { incomplete, orphans };
}
