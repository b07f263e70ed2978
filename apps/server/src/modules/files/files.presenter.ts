import type { FileRecord } from '@atrium/contracts';
import type { StoredFile } from './stored-file';

/** The spec's file record (docs/PRODUCT.md#api-paths) of a stored file (only the fields it shows are needed). */
export const presentFile = (
  file: Pick<StoredFile, 'id' | 'fileName' | 'size' | 'contentType' | 'uploadDate' | 'modifiedAt'>,
): FileRecord => ({
  id: file.id,
  fileId: file.id,
  fileName: file.fileName,
  size: file.size,
  contentType: file.contentType,
  uploadDate: file.uploadDate,
  ...(file.modifiedAt ? { modifiedAt: file.modifiedAt } : {}),
});
