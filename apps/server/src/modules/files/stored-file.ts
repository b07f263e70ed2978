import type { FileRow } from './files.repository';

/** A stored file as the files module's services hand it out: a domain record, never a database row. */
export interface StoredFile {
  id: string;
  /** Whose personal space the file is in (the file policy reads it). */
  ownerKey: string;
  fileName: string;
  size: number;
  contentType: string;
  sha256: string;
  blobKey: string;
  /** ISO-8601 UTC. */
  uploadDate: string;
}

export const toStoredFile = (row: FileRow): StoredFile => ({
  id: row.id,
  ownerKey: row.owner_key,
  fileName: row.file_name,
  size: row.size,
  contentType: row.content_type,
  sha256: row.sha256,
  blobKey: row.blob_key,
  uploadDate: row.upload_date,
});

/** Blob keys of a file's bytes and of its thumbnail. */
export const FILE_BLOB_PREFIX = 'files/';
export const THUMBNAIL_PREFIX = 'thumbnails/';
export const fileBlobKey = (id: string) => `${FILE_BLOB_PREFIX}${id}`;
export const thumbnailKey = (id: string) => `${THUMBNAIL_PREFIX}${id}.webp`;
