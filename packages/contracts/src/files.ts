import { z } from 'zod';
import { endpoint } from './endpoint';

/** A stored file as the screens read it (docs/PRODUCT.md#file-record). */
export const FileRecord = z
  .object({
    id: z.string(),
    fileId: z.string().describe('Same as id (the spec reads either)'),
    fileName: z.string(),
    size: z.number().int().nonnegative().describe('Bytes'),
    contentType: z.string(),
    uploadDate: z.string().describe('ISO-8601'),
    modifiedAt: z
      .string()
      .optional()
      .describe('ISO-8601: the modification time a WebDAV client declared (X-OC-Mtime); absent: uploadDate'),
  })
  .meta({ id: 'FileRecord' });
export type FileRecord = z.infer<typeof FileRecord>;

export const FileList = z.array(FileRecord).meta({ id: 'FileList' });
export type FileList = z.infer<typeof FileList>;

/** GET /api/files/user-stats/{userId} */
export const UserFileStats = z
  .object({
    fileCount: z.number().int().nonnegative(),
    sizeInBytes: z.number().int().nonnegative(),
    readableSize: z.string().describe('e.g. "1.50 MB"'),
    trashBytes: z.number().int().nonnegative().describe('Bytes in the trash (they count towards the quota)'),
    versionBytes: z
      .number()
      .int()
      .nonnegative()
      .describe('Bytes of older versions of files (they count towards the quota)'),
  })
  .meta({ id: 'UserFileStats' });
export type UserFileStats = z.infer<typeof UserFileStats>;

/** JSON answer of POST /api/files/upload when the client sends `Accept: application/json`. */
export const UploadFileResponse = FileRecord.meta({ id: 'UploadFileResponse' });
export type UploadFileResponse = z.infer<typeof UploadFileResponse>;

/** DELETE /api/files/user/{id} */
export const DeleteFileResponse = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeleteFileResponse' });
export type DeleteFileResponse = z.infer<typeof DeleteFileResponse>;

export const FileIdParams = z.object({ id: z.string().min(1).max(200) });
export const FileUserParams = z.object({ userId: z.string().min(1).max(320) });

/**
 * GET /api/files/user/{userId} query. The answer stays a plain array (as the
 * API's first clients read it); when more files follow, the `X-Next-Cursor` header carries the
 * cursor for the next page (and `Link: <…>; rel="next"`).
 */
export const FileListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(200).optional(),
});
export type FileListQuery = z.infer<typeof FileListQuery>;

export const DownloadQuery = z.object({
  inline: z.enum(['1', 'true', '0', 'false']).optional(),
});

/** Files at or above this size are uploaded with the resumable (tus) protocol by the web app. */
export const RESUMABLE_UPLOAD_THRESHOLD_BYTES = 64 * 1024 * 1024;

/** Header that carries the next page's cursor on GET /api/files/user/{userId}. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/**
 * What an upload does when its name is taken in the target folder (`?onConflict=`): `rename` (the default, as
 * always: `name (1).ext`), `replace` (the old content becomes a version of the same file, same id) or `fail` (409).
 */
export const UploadConflict = z.enum(['replace', 'rename', 'fail']).meta({ id: 'UploadConflict' });
export type UploadConflict = z.infer<typeof UploadConflict>;

/** The 409 of `?onConflict=fail`. */
export const nameTakenMessage = (name: string) =>
  `A file named “${name}” already exists in this folder. Replace it, keep both, or choose another name.`;

/** An older content of a file (GET /api/files/{id}/versions). */
export const FileVersion = z
  .object({
    id: z.string(),
    size: z.number().int().nonnegative().describe('Bytes'),
    contentType: z.string(),
    sha256: z.string(),
    uploadedBy: z.object({ id: z.string(), name: z.string() }).nullable().describe('null: unknown or deleted account'),
    createdAt: z.string().describe('ISO-8601: when this content was uploaded'),
  })
  .meta({ id: 'FileVersion' });
export type FileVersion = z.infer<typeof FileVersion>;

export const FileVersionList = z
  .object({
    versions: z.array(FileVersion).describe('Newest first; the current content is the file itself'),
    kept: z.number().int().nonnegative().describe('How many older versions are kept per file (FILE_VERSIONS_KEPT)'),
  })
  .meta({ id: 'FileVersionList' });
export type FileVersionList = z.infer<typeof FileVersionList>;

export const FileVersionParams = z.object({ id: z.string().min(1).max(200), versionId: z.string().min(1).max(200) });

// ---- Rename and move a file ----

/** PATCH /api/files/{id}: rename and/or move into another folder (of any space the caller may write to). */
export const UpdateFileRequest = z
  .object({
    fileName: z.string().max(1024, 'A file name can be at most 255 characters.').optional(),
    folderId: z.string().min(1).max(200).optional(),
  })
  .refine((value) => value.fileName !== undefined || value.folderId !== undefined, {
    message: 'Send a new fileName, a new folderId, or both.',
  })
  .meta({ id: 'UpdateFileRequest' });
export type UpdateFileRequest = z.infer<typeof UpdateFileRequest>;

/** Where uploads go: `POST /api/files/upload?workspaceId=&folderId=` (both optional; `userId` as in the spec). */
export const UploadPlacementQuery = z.object({
  userId: z.string().min(1).max(320).optional(),
  workspaceId: z.string().min(1).max(200).optional(),
  folderId: z.string().min(1).max(200).optional(),
});
export type UploadPlacementQuery = z.infer<typeof UploadPlacementQuery>;

/** POST /api/files/upload query: where the file goes, and what to do when its name is taken there. */
export const UploadQuery = UploadPlacementQuery.extend({ onConflict: UploadConflict.optional() });
export type UploadQuery = z.infer<typeof UploadQuery>;

/** Most items one archive request may name (each folder brings everything below it). */
export const ARCHIVE_ITEMS_MAX = 1000;

/** POST /api/files/archive: files and folders to download as one zip. */
export const ArchiveRequest = z
  .object({
    fileIds: z.array(z.string().min(1).max(200)).max(ARCHIVE_ITEMS_MAX).default([]),
    folderIds: z.array(z.string().min(1).max(200)).max(ARCHIVE_ITEMS_MAX).default([]),
  })
  .refine((value) => value.fileIds.length + value.folderIds.length > 0, {
    message: 'Choose at least one file or folder to download.',
  })
  .refine((value) => value.fileIds.length + value.folderIds.length <= ARCHIVE_ITEMS_MAX, {
    message: `Choose at most ${ARCHIVE_ITEMS_MAX} files and folders at once.`,
  })
  .meta({ id: 'ArchiveRequest' });
export type ArchiveRequest = z.infer<typeof ArchiveRequest>;

/** The files endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const filesEndpoints = {
  /** Multipart (field `file`); answers text, or JSON with `Accept: application/json`. */
  upload: endpoint({ method: 'POST', path: '/api/files/upload', query: UploadQuery, response: UploadFileResponse }),
  /** The bytes (Range, conditional requests); `?inline=1` for media sources. */
  download: endpoint({ method: 'GET', path: '/api/files/download/:id', params: FileIdParams, query: DownloadQuery }),
  /** A WebP thumbnail (the web adds `?v=` of the file's version to bust caches). */
  thumbnail: endpoint({ method: 'GET', path: '/api/files/:id/thumbnail', params: FileIdParams }),
  versionContent: endpoint({
    method: 'GET',
    path: '/api/files/:id/versions/:versionId/content',
    params: FileVersionParams,
  }),
  /** A zip of files and folders, streamed. */
  archive: endpoint({ method: 'POST', path: '/api/files/archive', body: ArchiveRequest }),
  list: endpoint({
    method: 'GET',
    path: '/api/files/user/:userId',
    params: FileUserParams,
    query: FileListQuery,
    response: FileList,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/api/files/user-stats/:userId',
    params: FileUserParams,
    response: UserFileStats,
  }),
  versions: endpoint({
    method: 'GET',
    path: '/api/files/:id/versions',
    params: FileIdParams,
    response: FileVersionList,
  }),
  restoreVersion: endpoint({
    method: 'POST',
    path: '/api/files/:id/versions/:versionId/restore',
    params: FileVersionParams,
    response: FileRecord,
  }),
  file: endpoint({ method: 'GET', path: '/api/files/:id', params: FileIdParams, response: FileRecord }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/files/:id',
    params: FileIdParams,
    body: UpdateFileRequest,
    response: FileRecord,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/files/user/:id',
    params: FileIdParams,
    response: DeleteFileResponse,
  }),
} as const;
