import { AppError } from '../../errors';
import type { FileSource } from '../ai/file-source';
import type { FilesService } from './files.service';

/**
 * Lets other modules (the AI services) read a file from the caller's own
 * storage by id, with the files module's ownership rules: another user's file
 * is FILE_NOT_FOUND, and a file over `maxBytes` is refused before it is read.
 */
export const createFilesFileSource = (files: FilesService): FileSource => ({
  async open(user, fileId, maxBytes) {
    const row = await files.get(user, fileId);
    if (row.size > maxBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The stored file is ${row.size} bytes; this service accepts at most ${maxBytes} bytes.`,
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of await files.openContent(row)) chunks.push(chunk as Buffer);
    return { buffer: Buffer.concat(chunks), contentType: row.content_type, fileName: row.file_name };
  },
});
