import type { FileRecord } from '@atrium/contracts';
import { uploadTo, type UploadOptions } from '../../../lib/upload';

/**
 * Uploads a file into `userId`'s personal space: multipart with progress below the threshold, resumable (tus)
 * above it (lib/upload.ts, shared with the spaces' file browser).
 */
export function uploadAnyFile(file: File, userId: string, options: UploadOptions = {}): Promise<FileRecord> {
  return uploadTo(file, { userId }, options);
}
