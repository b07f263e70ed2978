import type { StoredFile } from '../../events';
import type { FileRow } from './files.repository';

/**
 * A stored file as the files module's services hand it out: a domain record, never a database row. Its shape is the
 * `file.stored` event's (events/payloads.ts), which the modules reacting to a stored file read.
 */
export type { StoredFile };

export const toStoredFile = (row: FileRow): StoredFile => ({
  id: row.id,
  ownerKey: row.owner_key,
  workspaceId: row.workspace_id,
  folderId: row.folder_id,
  fileName: row.file_name,
  size: row.size,
  contentType: row.content_type,
  sha256: row.sha256,
  blobKey: row.blob_key,
  uploadDate: row.upload_date,
  modifiedAt: row.modified_at ?? null,
});

/**
 * Where a new file goes: a folder, and the space it is in — a workspace (`workspaceId`) or the personal space of
 * `ownerKey`. For a workspace file `ownerKey` names who put it there (no access follows from it).
 */
export interface UploadTarget {
  folderId: string;
  workspaceId: string | null;
  ownerKey: string;
  /** The signed-in uploader (null: an anonymous file-drop link). */
  uploadedBy: string | null;
}

/** Blob keys of a file's bytes and of its thumbnail. */
export const FILE_BLOB_PREFIX = 'files/';
export const THUMBNAIL_PREFIX = 'thumbnails/';
export const fileBlobKey = (id: string) => `${FILE_BLOB_PREFIX}${id}`;
/**
 * The thumbnail of the content stored under `blobKey`: keyed by the content, not the file, so a file's new content
 * (a replace, a version made current) never shows the old picture, even one a late background job writes.
 */
export const thumbnailKey = (blobKey: string) =>
  `${THUMBNAIL_PREFIX}${blobKey.startsWith(FILE_BLOB_PREFIX) ? blobKey.slice(FILE_BLOB_PREFIX.length) : blobKey.replaceAll('/', '_')}.webp`;
/** The blob key a thumbnail key was made from (the orphan sweep). */
export const thumbnailSource = (key: string) =>
  `${FILE_BLOB_PREFIX}${key.slice(THUMBNAIL_PREFIX.length).replace(/\.webp$/, '')}`;
