import { z } from 'zod';

/** A stored file as the screens read it (docs/PRODUCT.md#file-record). */
export const FileRecord = z
  .object({
    id: z.string(),
    fileId: z.string().describe('Same as id (the spec reads either)'),
    fileName: z.string(),
    size: z.number().int().nonnegative().describe('Bytes'),
    contentType: z.string(),
    uploadDate: z.string().describe('ISO-8601'),
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
