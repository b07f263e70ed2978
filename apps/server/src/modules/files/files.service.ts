import { createFilesChanges } from './files.changes';
import { createFilesCore, type FilesServiceDeps } from './files.core';
import { createFilesIngest } from './files.ingest';
import { createFilesQueries } from './files.queries';
import { createFilesVersions } from './files.versions';
import { sweepOrphans } from './maintenance';

export type { UploadInput } from './files.core';

/**
 * File storage rules: limits, quota, integrity, names — one `FilesService` composed of rooms that say what they hold:
 * `files.ingest.ts` (uploads, replaces, the one place a file gets new content), `files.versions.ts`,
 * `files.queries.ts` (lists, stats, bytes, thumbnails), `files.changes.ts` (rename, move, trash, restore, purge) and
 * `quota.ts`; what they share is `files.core.ts`. Who may do what is the file policy's (`auth/policies/file.ts`);
 * thumbnails, the orphan sweep, cursors and the wire shape have files of their own.
 */
export const createFilesService = (deps: FilesServiceDeps) => {
  const core = createFilesCore(deps);
  const { quota } = core;
  const ingest = createFilesIngest(core);
  return {
    /** The limit and quota errors, for callers that check a declared length before any byte arrives (tus). */
    quotaError: quota.quotaError,
    tooLargeError: quota.tooLargeError,
    /** The quota error of a space, naming its quota (a person's own one included). */
    quotaErrorOf: quota.quotaErrorOf,
    /** The remaining quota of a space (a person's or a workspace's), in bytes (may be negative). */
    remainingQuota: quota.remaining,
    /** A space's quota and what remains of it (WebDAV's quota properties). */
    quotaBudget: quota.budget,

    ingest: ingest.ingest,
    ingestIntoFolder: ingest.ingestIntoFolder,
    ingestFile: ingest.ingestFile,
    failIfTaken: ingest.failIfTaken,
    ...createFilesQueries(core),
    ...createFilesChanges(core),
    ...createFilesVersions(core, ingest),

    /** See `maintenance.ts`. */
    sweepOrphans: (graceMs: number) => sweepOrphans({ repo: deps.repo, blobs: deps.blobs, clock: deps.clock }, graceMs),
  };
};

export type FilesService = ReturnType<typeof createFilesService>;
