import type { FileRecord } from '@atrium/contracts';
import { uploadFile, type UploadOptions } from './files-api';

/** Uploads a file; the resumable path for large files plugs in here. */
export function uploadAnyFile(file: File, userId: string, options: UploadOptions = {}): Promise<FileRecord> {
  return uploadFile(file, userId, options);
}
