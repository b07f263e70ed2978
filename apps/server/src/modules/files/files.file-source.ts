import { AppError } from '../../errors';
import { readAll } from '../../lib/read-all';
import type { FileSource } from '../ai';
import type { FilesService } from './files.service';

/**
 * Lets other modules (the AI services) read a stored file by id with the files
 * module's read rule (`files.get`: own files, workspaces, shares); a file the
 * caller may not read is FILE_NOT_FOUND, and a file over `maxBytes` is refused
 * before it is read.
 */
export const createFilesFileSource = (files: FilesService): FileSource => ({
  async open(user, fileId, maxBytes) {
    const file = await files.get(user, fileId);
    if (file.size > maxBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The stored file is ${file.size} bytes; this service accepts at most ${maxBytes} bytes.`,
      );
    }
    const buffer = await readAll(await files.blobOf(file).open(), maxBytes);
    return { buffer, contentType: file.contentType, fileName: file.fileName };
  },
});
