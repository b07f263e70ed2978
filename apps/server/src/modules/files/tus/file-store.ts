import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { Transform } from 'node:stream';
import { StreamInspector } from '../../../lib/stream-inspector';
import { syncedFileWriter } from '../../../lib/synced-file-writer';
import { SNIFF_BYTES } from '../content-type';

/** Uploads whose running hash is kept between their PATCHes (the oldest is forgotten beyond). */
const INSPECTED_KEPT = 1000;

/**
 * tus's file store, with the blob store's writer: every PATCH streams through a 16 MiB buffer,
 * flushes to disk in the background and is fsync'd before it is answered, so an acknowledged
 * offset survives a crash and a finished upload is already on disk when it is handed over.
 * (The stock store writes through a 16 KiB stream and never syncs.)
 */
export class DurableFileStore extends FileStore {
  /**
   * Uploads written here from their first byte, every PATCH in order, by this process: counted and hashed as their
   * bytes arrived, so the finished file is not read again to hash it (a GiB took about 1.5 s more). A PATCH that fails,
   * or comes at another offset (another instance took the previous one), drops it: the file is then read again.
   */
  private readonly inspected = new Map<string, StreamInspector>();

  /** The data file of an upload (ids come from tus's naming function and are checked in URLs). */
  dataFile(id: string): string {
    return path.join(this.directory, id);
  }

  /** What was counted and hashed of upload `id` while it was written, when that covers all its `size` bytes. */
  takeInspected(id: string, size: number): StreamInspector | undefined {
    const inspector = this.inspected.get(id);
    this.inspected.delete(id);
    return inspector?.size === size ? inspector : undefined;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const kept = this.inspected.get(id);
    this.inspected.delete(id);
    const inspector =
      offset === 0 ? new StreamInspector(() => undefined, SNIFF_BYTES) : kept?.size === offset ? kept : undefined;
    const writer = syncedFileWriter(this.dataFile(id), { flags: 'r+', start: offset });
    try {
      if (inspector) {
        const tap = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            inspector.inspectChunk(chunk);
            callback(null, chunk);
          },
        });
        await pipeline(readable, tap, writer);
      } else {
        await pipeline(readable, writer);
      }
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    if (inspector?.size === offset + writer.bytesWritten) {
      if (this.inspected.size >= INSPECTED_KEPT) this.inspected.delete(this.inspected.keys().next().value ?? '');
      this.inspected.set(id, inspector);
    }
    return offset + writer.bytesWritten;
  }

  /** Removes an upload; its data file may already have been moved into the blob store. */
  override async remove(id: string): Promise<void> {
    this.inspected.delete(id);
    await unlink(this.dataFile(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw ERRORS.FILE_NOT_FOUND;
    });
    await this.configstore.delete(id);
  }
}
