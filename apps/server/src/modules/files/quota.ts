import { formatBytes } from '@atrium/contracts/format-bytes';
import { AppError } from '../../errors';
import { StreamInspector } from '../../lib/stream-inspector';
import { SNIFF_BYTES } from './content-type';
import type { FilesRepository } from './files.repository';

/** A space whose bytes a quota counts: a workspace, or a person's personal space (`workspaceId` null). */
export interface QuotaSpace {
  workspaceId: string | null;
  ownerKey: string;
}

export interface QuotaDeps {
  repo: Pick<FilesRepository, 'statsByOwner' | 'usedByWorkspace'>;
  limits: { maxBytes: number; userQuotaBytes: number; workspaceQuotaBytes: number };
  /** A person's own quota (set by an admin), or null for the default `USER_QUOTA_BYTES`. */
  quotas: { quotaOf(ownerKey: string): Promise<number | null> };
}

/**
 * The storage quota and the upload limit, in one place (docs/PRODUCT.md): what a space may hold, what it holds, the
 * 413s of a full space and of a too large file, and the inspector that enforces both while bytes stream in. A
 * space's bytes are its files (trashed ones included) and their older versions.
 */
export function createQuota({ repo, limits, quotas }: QuotaDeps) {
  /**
   * A space's quota: a workspace's (`WORKSPACE_QUOTA_BYTES`) or a person's (their own, set by an admin, else
   * `USER_QUOTA_BYTES`).
   */
  const quotaOf = async (space: QuotaSpace): Promise<number> =>
    space.workspaceId === null
      ? ((await quotas.quotaOf(space.ownerKey)) ?? limits.userQuotaBytes)
      : limits.workspaceQuotaBytes;
  const usedBytes = async (space: QuotaSpace) =>
    space.workspaceId === null
      ? await repo.statsByOwner(space.ownerKey).then((s) => s.sizeInBytes + s.trashBytes + s.versionBytes)
      : await repo.usedByWorkspace(space.workspaceId);

  /** The 413 of a full space; `quotaBytes`: a person's own quota when it is not the default. */
  const quotaError = (space: { workspaceId: string | null } = { workspaceId: null }, quotaBytes?: number) =>
    new AppError(
      'QUOTA_EXCEEDED',
      space.workspaceId !== null
        ? `This would exceed the workspace's storage quota of ${formatBytes(limits.workspaceQuotaBytes)}. Delete some of its files and try again.`
        : quotaBytes === undefined || quotaBytes === limits.userQuotaBytes
          ? `This upload would exceed the storage quota of ${formatBytes(limits.userQuotaBytes)} per user. Delete some files and try again.`
          : `This upload would exceed your storage quota of ${formatBytes(quotaBytes)}. Delete some files and try again.`,
    );
  const tooLargeError = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${formatBytes(limits.maxBytes)}.`);

  return {
    quotaOf,
    usedBytes,
    quotaError,
    tooLargeError,

    /** The quota error of a space, naming its quota (a person's own one included). */
    quotaErrorOf: async (space: QuotaSpace) => quotaError(space, await quotaOf(space)),

    /** The remaining quota of a space (a person's or a workspace's), in bytes (may be negative). */
    remaining: async (space: QuotaSpace): Promise<number> => (await quotaOf(space)) - (await usedBytes(space)),

    /** The space's quota and what is left of it, read once before an upload's bytes are read. */
    async budget(space: QuotaSpace): Promise<{ quota: number; remaining: number }> {
      const quota = await quotaOf(space);
      return { quota, remaining: quota - (await usedBytes(space)) };
    },

    /** Refuses (413) `bytes` more in a space that has no room for them. */
    async requireRoom(space: QuotaSpace, bytes: number): Promise<void> {
      const quota = await quotaOf(space);
      if ((await usedBytes(space)) + bytes > quota) throw quotaError(space, quota);
    },

    /**
     * Concurrent uploads each checked the quota on their own: with the new file counted, the quota error when
     * together they went over (the caller withdraws the file), else undefined.
     */
    async overQuota(space: QuotaSpace): Promise<AppError | undefined> {
      const quota = await quotaOf(space);
      return (await usedBytes(space)) > quota ? quotaError(space, quota) : undefined;
    },

    /** An inspector that fails once the upload passes the upload limit or the space's remaining quota. */
    inspectorWithin: (remaining: number, space: { workspaceId: string | null }, quotaBytes: number) =>
      new StreamInspector<AppError>(
        (size) =>
          size > limits.maxBytes ? tooLargeError() : size > remaining ? quotaError(space, quotaBytes) : undefined,
        SNIFF_BYTES,
      ),
  };
}
