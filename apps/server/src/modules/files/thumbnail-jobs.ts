import { AppError } from '../../errors';
import { PermanentJobError, type JobQueue } from '../../jobs/queue';
import type { StoredFile } from './stored-file';
import { thumbnailable } from './thumbnails';

/** The queue kind of background thumbnails (in the one durable job queue, beside analysis). */
export const THUMBNAIL_JOB_KIND = 'thumbnail';

export interface ThumbnailJobsDeps {
  /** The one job queue (`jobs/queue.ts`): thumbnails register their kind on it. */
  queue: JobQueue;
  files: {
    findUnchecked(id: string): Promise<StoredFile | undefined>;
    prepareThumbnail(file: StoredFile): Promise<void>;
  };
  log: { warn(details: object, message: string): void };
}

/**
 * Thumbnails of new uploads, made in the background (docs/PRODUCT.md#grid-view): `onStored(file)` enqueues a
 * durable job (one per file and content, in `jobs`; a crash hands it to another instance), the job makes the
 * thumbnail through the files service unless the blob store has it — the blob key is the cache, so a request that
 * came first, or another instance, leaves nothing to do. A type without a thumbnail or a missing engine is done at
 * once (nothing to make); an unreadable file fails for good; a busy engine is retried with backoff.
 */
export function createThumbnailJobs(deps: ThumbnailJobsDeps) {
  deps.queue.register(THUMBNAIL_JOB_KIND, {
    concurrency: 1,
    timeoutMs: 5 * 60_000,
    leaseMs: 15_000,
    async run({ job }) {
      const file = await deps.files.findUnchecked(job.fileId);
      // Deleted, or its content replaced meanwhile (the newer content has a job of its own).
      if (!file || file.sha256 !== job.contentSha) return undefined;
      try {
        await deps.files.prepareThumbnail(file);
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
        if (error instanceof AppError && error.code === 'UNSUPPORTED_MEDIA_TYPE')
          throw new PermanentJobError(error.message);
        throw error;
      }
      return undefined;
    },
  });

  return {
    /** A file's content was stored: enqueue its thumbnail. Never throws (storing the file has succeeded). */
    async onStored(file: StoredFile): Promise<void> {
      if (!thumbnailable(file.contentType)) return;
      try {
        await deps.queue.enqueue(THUMBNAIL_JOB_KIND, { fileId: file.id, contentSha: file.sha256 });
      } catch (error) {
        deps.log.warn({ err: error, file: file.id }, 'could not enqueue a file’s thumbnail');
      }
    },
  };
}
