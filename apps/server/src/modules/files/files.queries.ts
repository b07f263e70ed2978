import type { Readable } from 'node:stream';
import { readableSize } from '@atrium/contracts/format-bytes';
import type { UserFileStats } from '@atrium/contracts';
import type { AccessFacts } from '../../auth/access-facts';
import type { Actor, UserActor } from '../../auth/actor';
import { canFile, fileRole, requireActsFor, requireFile } from '../../auth/policies/file';
import type { BlobRecord } from '../../lib/http/send-blob';
import type { ZipTreeFile } from '../../lib/http/zip-stream';
import { decodeCursor, encodeCursor } from './cursor';
import type { FilesCore } from './files.core';
import { presentFile } from './files.presenter';
import { toStoredFile, type StoredFile } from './stored-file';

/** The queries room: lists, stats, one file (policy-checked or for callers whose own policy decided), bytes, thumbnails. */
export function createFilesQueries({ repo, blobs, thumbnails, find, authorized, access }: FilesCore) {
  return {
    async list(actor: Actor, ownerKey: string, page: { limit?: number | undefined; cursor?: string | undefined }) {
      requireActsFor(actor, ownerKey, 'read');
      const limit = page.limit ?? 1000;
      const rows = await repo.listByOwner(ownerKey, limit + 1, page.cursor ? decodeCursor(page.cursor) : undefined);
      const items = rows.slice(0, limit).map(toStoredFile);
      const last = items.at(-1);
      return {
        files: items.map(presentFile),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : undefined,
      };
    },

    async stats(actor: Actor, ownerKey: string): Promise<UserFileStats> {
      requireActsFor(actor, ownerKey, 'read');
      const { fileCount, sizeInBytes, trashBytes, versionBytes } = await repo.statsByOwner(ownerKey);
      return { fileCount, sizeInBytes, readableSize: readableSize(sizeInBytes), trashBytes, versionBytes };
    },

    /** A file the actor may read. */
    get: (actor: Actor, id: string): Promise<StoredFile> => authorized(actor, id, 'read'),

    /**
     * The SHA-256 of those of `ids` the actor may read (a WebDAV listing's `oc:checksums`, docs/PRODUCT.md#webdav),
     * in one query for the files: the file policy decides on each with membership and shares read once per folder. A
     * share on a file itself only adds to its folder's, so a file its folder's facts do not open is checked alone.
     */
    async sha256Of(actor: UserActor, ids: string[]): Promise<Map<string, string>> {
      const readable = new Map<string, string>();
      const factsOf = new Map<string, Promise<AccessFacts>>();
      for (const file of (await repo.findByIds(ids)).map(toStoredFile)) {
        const owns = file.workspaceId === null && file.ownerKey === actor.ownerKey;
        const key = `${file.workspaceId ?? ''}/${file.folderId ?? ''}/${owns}`;
        let facts = factsOf.get(key);
        if (!facts) {
          facts = access.factsFor(actor, { workspaceId: file.workspaceId, folderId: file.folderId }, owns);
          factsOf.set(key, facts);
        }
        const alone = async () => {
          const found = await find(actor, file.id);
          return found !== undefined && canFile(actor, 'read', found);
        };
        if (canFile(actor, 'read', { ...file, ...(await facts) }) || (await alone()))
          readable.set(file.id, file.sha256);
      }
      return readable;
    },

    /**
     * A file the actor may read, with what the file policy read of the actor (membership role, share role) and the
     * role it gives them (the details panel shows more to who may share).
     */
    async readableWithRole(actor: UserActor, id: string) {
      const file: StoredFile & Partial<AccessFacts> = await requireFile(actor, 'read', () => find(actor, id));
      return { file, role: fileRole(actor, file) ?? 'viewer' };
    },

    /** File `id` if the actor may do `action` to it: 404 `FILE_NOT_FOUND` when hidden, 403 when view-only. */
    authorize: authorized,

    /**
     * File `id` with no policy check, for callers whose own policy decided (a public link's bearer: the link policy
     * and the link's file or folder say what it reaches).
     */
    async findUnchecked(id: string): Promise<StoredFile | undefined> {
      const row = await repo.findById(id);
      return row && toStoredFile(row);
    },

    /** What `sendBlob` needs to send a file's bytes. */
    blobOf: (file: StoredFile): BlobRecord => ({
      size: file.size,
      etag: `"${file.sha256}"`,
      lastModified: new Date(file.uploadDate),
      contentType: file.contentType,
      fileName: file.fileName,
      open: (range) => blobs.get(file.blobKey, range),
    }),

    /** A file as an entry of a zip (`addFolderTree`): its folder, name, size, date, and bytes opened when reached. */
    zipEntryOf: (file: StoredFile): ZipTreeFile => ({
      folderId: file.folderId,
      name: file.fileName,
      source: { size: file.size, mtime: new Date(file.uploadDate), open: () => blobs.get(file.blobKey) },
    }),

    /** A small WebP of an image the actor may read, made on first request and kept. */
    async thumbnail(actor: Actor, id: string): Promise<{ file: StoredFile; stream: Readable }> {
      const file = await authorized(actor, id, 'read');
      return { file, stream: await thumbnails.open(file) };
    },

    /** The thumbnail of a file with no policy check, for callers whose own policy decided (a public link's bearer). */
    thumbnailUnchecked: (file: StoredFile): Promise<Readable> => thumbnails.open(file),

    /**
     * Makes the thumbnail of a file's current content unless it exists (the background job after an upload); throws
     * the thumbnail's AppErrors (404: no thumbnail for its type or its engine is missing; 415: unreadable; 503: busy).
     */
    prepareThumbnail: async (file: StoredFile): Promise<void> => {
      await thumbnails.ensure(file);
    },
  };
}
