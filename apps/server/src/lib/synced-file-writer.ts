import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Default bytes written between two background flushes of a file being written. Each flush commits
 * the file system's journal, and writes wait while it commits, so fewer, larger flushes stall less:
 * in paired runs 128 MiB beat 64 MiB, which beat 32 MiB (docs/BENCHMARKS.md).
 */
export const FLUSH_EVERY_BYTES = 128 * 1024 * 1024;

/**
 * Bytes a writer accepts before it pushes back on its source. Large enough to absorb a write that
 * waits for a journal commit, so the network keeps flowing meanwhile (with 1 MiB a large upload
 * stopped and started; 16 MiB was faster in paired rounds). Writers open at the same time share
 * WRITE_BUFFER_BUDGET, and each gets at least MIN_WRITE_BUFFER_BYTES, so fifty concurrent uploads
 * to a slow disk buffer about 100 MiB, not 800.
 */
const WRITE_BUFFER_BYTES = 16 * 1024 * 1024;
const MIN_WRITE_BUFFER_BYTES = 1024 * 1024;
const WRITE_BUFFER_BUDGET = 64 * 1024 * 1024;
let bufferBudget = WRITE_BUFFER_BUDGET;

export interface SyncedFileWriterOptions {
  /** `wx` (default) creates a new file; `r+` writes into an existing one from `start`. */
  flags?: 'wx' | 'r+';
  /** Byte offset of the first write (default 0). */
  start?: number;
  /** Bytes written between two background flushes (default FLUSH_EVERY_BYTES). */
  flushEveryBytes?: number;
}

export type SyncedFileWriter = Writable & { bytesWritten: number };

/**
 * A write stream to a file that asks the kernel to flush what has been written every
 * `flushEveryBytes`, in the background, while more bytes arrive. The durability `fsync` when the
 * stream ends then only has the last stretch to write, instead of the whole file after the last
 * byte came in: the disk works while the network does, and a large upload is answered sooner.
 * The stream finishes only once the file is synced and closed; destroying it closes the file and
 * keeps what was written.
 */
export function syncedFileWriter(
  file: string,
  { flags = 'wx', start = 0, flushEveryBytes = FLUSH_EVERY_BYTES }: SyncedFileWriterOptions = {},
): SyncedFileWriter {
  let handle: FileHandle | undefined;
  let unflushed = 0;
  let flushing: Promise<unknown> | undefined;
  let flushError: Error | undefined;
  let reserved = Math.max(MIN_WRITE_BUFFER_BYTES, Math.min(WRITE_BUFFER_BYTES, bufferBudget));
  bufferBudget -= reserved;
  const opened = () => {
    if (!handle) throw new Error(`${file} is not open`);
    return handle;
  };
  const afterWrite = (bytes: number) => {
    writer.bytesWritten += bytes;
    unflushed += bytes;
    if (unflushed < flushEveryBytes || flushing) return;
    unflushed = 0;
    flushing = opened()
      .datasync()
      .catch((error: unknown) => (flushError = error as Error))
      .finally(() => (flushing = undefined));
  };
  const close = async () => {
    bufferBudget += reserved;
    reserved = 0;
    const open = handle;
    handle = undefined;
    await flushing;
    await open?.close();
  };
  const writer = Object.assign(
    new Writable({
      highWaterMark: reserved,
      // Opened here, so the stream exists (and takes errors) at once.
      construct(callback) {
        open(file, flags).then((opened) => {
          handle = opened;
          callback();
        }, callback);
      },
      // Only writev: Node sends a lone chunk through it too.
      writev(chunks, callback) {
        if (flushError) return callback(flushError);
        const buffers = chunks.map(({ chunk }) => chunk as Buffer);
        const expected = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
        opened()
          .writev(buffers, start + writer.bytesWritten)
          .then(({ bytesWritten }) => {
            afterWrite(bytesWritten);
            callback(bytesWritten === expected ? null : new Error(`Short write to ${file}`));
          }, callback);
      },
      final(callback) {
        (async () => {
          await flushing;
          if (flushError) throw flushError;
          await opened().sync();
          await close();
        })().then(() => callback(), callback);
      },
      destroy(error, callback) {
        close().then(
          () => callback(error),
          () => callback(error),
        );
      },
    }),
    { bytesWritten: 0 },
  );
  return writer;
}
