import { z } from 'zod';

/** A stored file as the spec's screens read it (section 3). */
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
  })
  .meta({ id: 'UserFileStats' });
export type UserFileStats = z.infer<typeof UserFileStats>;
