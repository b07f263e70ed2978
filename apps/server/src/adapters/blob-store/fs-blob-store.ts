import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileHandle } from 'node:fs/promises';
import { assertValidKey, BlobNotFoundError, type BlobInfo, type BlobStore, type ByteRange } from './types';

const TMP_DIR = '.tmp';

async function fsyncPath(file: string, flags: string): Promise<void> {
  const handle = await open(file, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Default bytes written between two background flushes of a file being written. Each flush commits the
 * file system's journal, and writes wait while it commits, so fewer, larger flushes stall less:
 * in paired runs 128 MiB beat 64 MiB, which beat 32 MiB (docs/BENCHMARKS.md).
 */
const FLUSH_EVERY_BYTES = 128 * 1024 * 1024;

/**
 * Bytes a writer accepts before it pushes back on the upload. Large enough to absorb a write
 * that waits for a journal commit, so the network keeps flowing meanwhile (with 1 MiB a large
 * upload stopped and started; 16 MiB was faster in paired rounds). Uploads running at the same
 * time share WRITE_BUFFER_BUDGET, and each gets at least MIN_WRITE_BUFFER_BYTES, so fifty
 * concurrent uploads to a slow disk buffer about 100 MiB, not 800.
 */
const WRITE_BUFFER_BYTES = 16 * 1024 * 1024;
const MIN_WRITE_BUFFER_BYTES = 1024 * 1024;
const WRITE_BUFFER_BUDGET = 64 * 1024 * 1024;

/**
 * A write stream to a new file that asks the kernel to flush what has been written every
 * `flushEveryBytes`, in the background, while more bytes arrive. The durability `fsync` when the
 * stream ends then only has the last stretch to write, instead of the whole file after the last
 * byte came in: the disk works while the network does, and a large upload is answered sooner.
 * The stream finishes only once the file is synced and closed; destroying it closes the file.
 */
function syncedFileWriter(
  file: string,
  { flushEveryBytes, bufferBytes }: { flushEveryBytes: number; bufferBytes: number },
): Writable & { bytesWritten: number } {
  let handle: FileHandle | undefined;
  let unflushed = 0;
  let flushing: Promise<unknown> | undefined;
  let flushError: Error | undefined;
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
    const open = handle;
    handle = undefined;
    await flushing;
    await open?.close();
  };
  const writer = Object.assign(
    new Writable({
      highWaterMark: bufferBytes,
      // Opened here, so the stream exists (and takes errors) at once.
      construct(callback) {
        open(file, 'wx').then((opened) => {
          handle = opened;
          callback();
        }, callback);
      },
      // Only writev: Node sends a lone chunk through it too.
      writev(chunks, callback) {
        if (flushError) return callback(flushError);
        opened()
          .writev(chunks.map(({ chunk }) => chunk as Buffer))
          .then(({ bytesWritten }) => callback(void afterWrite(bytesWritten)), callback);
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

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/**
 * Blobs as files under `root` (DATA_DIR/blobs by default). Writes go to
 * `root/.tmp/<random>`, are fsync'd, then renamed over the final path (atomic
 * on one file system) and the folder is fsync'd so the rename survives a crash.
 */
export interface FsBlobStoreOptions {
  /** Bytes written between two background flushes of a file being written (default 128 MiB). */
  flushEveryBytes?: number;
}

export function createFsBlobStore(
  root: string,
  { flushEveryBytes = FLUSH_EVERY_BYTES }: FsBlobStoreOptions = {},
): BlobStore {
  const resolved = path.resolve(root);
  const tmpDir = path.join(resolved, TMP_DIR);
  const pathOf = (key: string) => {
    assertValidKey(key);
    return path.join(resolved, ...key.split('/'));
  };
  let ready: Promise<void> | undefined;
  let bufferBudget = WRITE_BUFFER_BUDGET;
  const ensureRoot = () => (ready ??= mkdir(tmpDir, { recursive: true }).then(() => undefined));

  async function* walk(dir: string, relative: string): AsyncGenerator<BlobInfo> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && entry.name === TMP_DIR) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(full, key);
      else if (entry.isFile()) {
        const info = await stat(full).catch(() => null);
        if (info) yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }

  return {
    kind: 'fs',
    async put(key, body) {
      const target = pathOf(key);
      await ensureRoot();
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      const bufferBytes = Math.max(MIN_WRITE_BUFFER_BYTES, Math.min(WRITE_BUFFER_BYTES, bufferBudget));
      bufferBudget -= bufferBytes;
      const writer = syncedFileWriter(tmp, { flushEveryBytes, bufferBytes });
      try {
        await pipeline(body, writer);
        const size = writer.bytesWritten;
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
        await fsyncPath(path.dirname(target), 'r');
        return { size };
      } catch (error) {
        await unlink(tmp).catch(() => undefined);
        throw error;
      } finally {
        bufferBudget += bufferBytes;
      }
    },
    async get(key, range?: ByteRange) {
      const file = pathOf(key);
      // Open first so a missing file is an error here, not later in the stream.
      const handle = await open(file, 'r').catch((error: unknown) => {
        throw isMissing(error) ? new BlobNotFoundError(key) : error;
      });
      return createReadStream('', {
        fd: handle,
        highWaterMark: 1024 * 1024,
        ...(range ? { start: range.start, end: range.end } : {}),
      }) as Readable;
    },
    async stat(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { key, size: info.size, lastModified: info.mtime } : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    list(prefix) {
      const base = prefix.replace(/\/+$/, '');
      const [dirPart] = base.includes('/') ? [base.slice(0, base.lastIndexOf('/'))] : [''];
      const start = dirPart ? path.join(resolved, ...dirPart.split('/')) : resolved;
      const all = walk(start, dirPart);
      return (async function* () {
        for await (const info of all) if (info.key.startsWith(prefix)) yield info;
      })();
    },
    async sweepIncomplete(before) {
      let removed = 0;
      const entries = await readdir(tmpDir).catch(() => [] as string[]);
      for (const name of entries) {
        const full = path.join(tmpDir, name);
        const info = await stat(full).catch(() => null);
        if (info && info.mtime < before) {
          await rm(full, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
    async ping() {
      await ensureRoot();
      const probe = path.join(tmpDir, `ping-${randomUUID()}`);
      await open(probe, 'wx').then((handle) => handle.close());
      await unlink(probe);
    },
    async close() {},
  };
}
