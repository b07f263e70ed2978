import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, fstat, open as openCallback } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { FLUSH_EVERY_BYTES, syncedFileWriter } from '../../lib/synced-file-writer';
import { FileReadStream } from './file-read-stream';
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

/** A plain descriptor (not a `FileHandle`): `FileReadStream` owns and closes it. */
const openFd = (file: string): Promise<number> => promisify(openCallback)(file, 'r');
const fstatSize = async (fd: number): Promise<number> => (await promisify(fstat)(fd)).size;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

export interface FsBlobStoreOptions {
  /** Bytes written between two background flushes of a file being written (default 128 MiB). */
  flushEveryBytes?: number;
}

/**
 * Blobs as files under `root` (DATA_DIR/blobs by default). Writes go to
 * `root/.tmp/<random>`, are fsync'd, then renamed over the final path (atomic
 * on one file system) and the folder is fsync'd so the rename survives a crash.
 */
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

  const store: BlobStore = {
    kind: 'fs',
    async put(key, body) {
      const target = pathOf(key);
      await ensureRoot();
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      const writer = syncedFileWriter(tmp, { flushEveryBytes });
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
      }
    },
    async adoptFile(key, file) {
      const target = pathOf(key);
      await ensureRoot();
      await fsyncPath(file, 'r');
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(file, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another file system: copy (through a temp file, atomically), then drop the original.
        const stored = await store.put(key, createReadStream(file, { highWaterMark: 1024 * 1024 }));
        await unlink(file);
        return stored;
      }
      await fsyncPath(path.dirname(target), 'r');
      return { size: (await stat(target)).size };
    },
    async get(key, range?: ByteRange) {
      const file = pathOf(key);
      // Open first so a missing file is an error here, not later in the stream.
      const fd = await openFd(file).catch((error: unknown) => {
        throw isMissing(error) ? new BlobNotFoundError(key) : error;
      });
      if (range) return new FileReadStream(fd, range.start, range.end);
      const size = await fstatSize(fd).catch((error: unknown) => {
        closeSync(fd);
        throw error;
      });
      return new FileReadStream(fd, 0, size - 1);
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
    // Resumable uploads in progress live in DATA_DIR/tus with this store: nothing more to check.
    async checkResumable() {},
    async close() {},
  };
  return store;
}
