import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { syncedFileWriter } from '../../../lib/synced-file-writer';

/**
 * tus's file store, with the blob store's writer: every PATCH streams through a 16 MiB buffer,
 * flushes to disk in the background and is fsync'd before it is answered, so an acknowledged
 * offset survives a crash and a finished upload is already on disk when it is handed over.
 * (The stock store writes through a 16 KiB stream and never syncs.)
 */
export class DurableFileStore extends FileStore {
  /** The data file of an upload (ids come from tus's naming function and are checked in URLs). */
  dataFile(id: string): string {
    return path.join(this.directory, id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const writer = syncedFileWriter(this.dataFile(id), { flags: 'r+', start: offset });
    try {
      await pipeline(readable, writer);
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + writer.bytesWritten;
  }

  /** Removes an upload; its data file may already have been moved into the blob store. */
  override async remove(id: string): Promise<void> {
    await unlink(this.dataFile(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw ERRORS.FILE_NOT_FOUND;
    });
    await this.configstore.delete(id);
  }
}
