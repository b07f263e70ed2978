import type { Db, Dialect } from '../../db';
import { AppError } from '../../errors';
import { createJobQueue, PermanentJobError } from '../../jobs/queue';
import type { Clock } from '../../lib/time';
import type { StoredFile } from './stored-file';
import { thumbnailable } from './thumbnails';

/** The queue kind of background thumbnails (in the durable job table shared with analysis). */
export const THUMBNAIL_JOB_KIND = 'thumbnail';

export interface ThumbnailJobsDeps {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  files: {
    findUnchecked(id: string): Promise<StoredFile | undefined>;
    prepareThumbnail(file: StoredFile): Promise<void>;
  };
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
  /** Queue tuning (tests). */
  queue?: { pollMs?: number; leaseMs?: number; backoffMs?: number; maxAttempts?: number };
}

/**
 * Thumbnails of new uploads, made in the background (issue 16): `onStored(file)` enqueues a durable job (one per file
 * and content, in `analysis_jobs`; a crash hands it to another instance), the job makes the thumbnail through the
 * files service unless the blob store has it — the blob key is the cache, so a request that came first, or another
 * instance, leaves nothing to do. A type without a thumbnail or a missing engine is done at once (nothing to make);
 * an unreadable file fails for good; a busy engine is retried with backoff.
 */
export function createThumbnailJobs(deps: ThumbnailJobsDeps) {
  const queue = createJobQueue({
    db: deps.db,
    dialect: deps.dialect,
    clock: deps.clock,
    log: deps.log,
    timeoutMs: 5 * 60_000,
    leaseMs: 15_000,
    ...deps.queue,
    kinds: {
      [THUMBNAIL_JOB_KIND]: {
        concurrency: 1,
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
      },
    },
  });

  return {
    queue,
    /** A file's content was stored: enqueue its thumbnail. Never throws (storing the file has succeeded). */
    async onStored(file: StoredFile): Promise<void> {
      if (!thumbnailable(file.contentType)) return;
      try {
        await deps.db.transaction().execute(async (trx) => {
          // The same content again (a version made current): a finished job would make the enqueue a no-op.
          await trx
            .deleteFrom('analysis_jobs')
            .where('file_id', '=', file.id)
            .where('kind', '=', THUMBNAIL_JOB_KIND)
            .where('state', 'in', ['done', 'failed'])
            .execute();
          await queue.enqueue(trx, { kind: THUMBNAIL_JOB_KIND, fileId: file.id, contentSha: file.sha256 });
        });
      } catch (error) {
        deps.log.warn({ err: error, file: file.id }, 'could not enqueue a file’s thumbnail');
      }
    },
    start: () => queue.start(),
    stop: () => queue.stop(),
  };
}

export type ThumbnailJobs = ReturnType<typeof createThumbnailJobs>;
