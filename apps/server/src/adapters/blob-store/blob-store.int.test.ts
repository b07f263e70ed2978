import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { startS3 } from '../../../test/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, createFsBlobStore, createS3BlobStore, type BlobStore } from '.';

interface Harness {
  store: BlobStore;
  close(): Promise<void>;
}

const implementations: [string, () => Promise<Harness>][] = [
  [
    'fs',
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'atrium-blobs-'));
      return { store: createFsBlobStore(root), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  ],
  [
    's3',
    async () => {
      const s3 = await startS3();
      const store = createS3BlobStore({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: 'atrium-test',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        prefix: 'tenant/',
        partSize: 5 * 1024 * 1024,
      });
      return {
        store,
        async close() {
          await store.close();
          await s3.close();
        },
      };
    },
  ],
];

/** A stream of `size` pseudo-random bytes, produced in chunks (never one buffer). */
function chunked(bytes: Buffer, chunk = 64 * 1024): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) this.push(null);
      else {
        this.push(bytes.subarray(offset, offset + chunk));
        offset += chunk;
      }
    },
  });
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(implementations)('blob store contract (%s)', (_name, start) => {
  let harness: Harness;
  let store: BlobStore;
  beforeAll(async () => {
    harness = await start();
    store = harness.store;
  });
  afterAll(async () => harness?.close());

  it('answers its readiness probe', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('stores a stream and reads it back whole and by range', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 123); // several multipart parts on S3
    const { size } = await store.put('files/big', chunked(bytes));
    expect(size).toBe(bytes.length);
    expect(sha(await buffer(await store.get('files/big')))).toBe(sha(bytes));
    const part = await buffer(await store.get('files/big', { start: 5 * 1024 * 1024 - 10, end: 5 * 1024 * 1024 + 9 }));
    expect(part.equals(bytes.subarray(5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 10))).toBe(true);
    const info = await store.stat('files/big');
    expect(info?.size).toBe(bytes.length);
    expect(info?.lastModified).toBeInstanceOf(Date);
  });

  it('lists by prefix, deletes, and reports missing blobs', async () => {
    await store.put('thumbnails/a.webp', Readable.from([Buffer.from('a')]));
    await store.put('files/small', Readable.from([Buffer.from('small')]));
    const keys: string[] = [];
    for await (const info of store.list('files/')) keys.push(info.key);
    expect(keys.sort()).toEqual(['files/big', 'files/small']);
    await store.delete('files/small');
    await store.delete('files/small'); // deleting twice is fine
    expect(await store.stat('files/small')).toBeNull();
    await expect(store.get('files/small')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('leaves nothing under the key when the source stream fails midway', async () => {
    const source = new Readable({ read() {} });
    const pending = store.put('files/broken', source);
    source.push(randomBytes(6 * 1024 * 1024));
    setTimeout(() => source.destroy(new Error('client went away')), 50);
    await expect(pending).rejects.toThrow();
    expect(await store.stat('files/broken')).toBeNull();
    expect(await store.sweepIncomplete(new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(0);
  });

  it('overwrites atomically: a reader sees the old or the new bytes, never a mix', async () => {
    await store.put('files/swap', Readable.from([Buffer.from('old version')]));
    await store.put('files/swap', Readable.from([Buffer.from('new version!')]));
    expect((await buffer(await store.get('files/swap'))).toString()).toBe('new version!');
  });

  it('refuses keys that could escape its root', async () => {
    for (const key of ['../etc/passwd', '/abs', 'files/../../x', 'a//b', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(/Invalid blob key/);
    }
  });
});

/** A folder on another file system than the temp folder (tmpfs), when this machine has one. */
const otherDevice =
  existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev ? '/dev/shm' : undefined;

describe('fs blob store', () => {
  /** Hands a finished 3 MiB file in `folder` to a new store and checks the store took it over. */
  async function adoptFrom(folder: string) {
    const root = mkdtempSync(path.join(tmpdir(), 'atrium-blobs-'));
    const source = mkdtempSync(path.join(folder, 'atrium-adopt-'));
    try {
      const store = createFsBlobStore(root);
      const bytes = randomBytes(3 * 1024 * 1024 + 5);
      const file = path.join(source, 'upload.bin');
      writeFileSync(file, bytes);
      expect(await store.adoptFile?.('files/adopted', file)).toEqual({ size: bytes.length });
      expect(existsSync(file)).toBe(false);
      expect(sha(await buffer(await store.get('files/adopted')))).toBe(sha(bytes));
      expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(source, { recursive: true, force: true });
    }
  }

  it('sends a file piped into an HTTP response byte for byte, whole and by range, to a slow reader too', async () => {
    // Piped into a response, the stream reuses a few read buffers (docs/BENCHMARKS.md): a buffer overwritten while
    // its bytes were still in flight would show here as a wrong hash, most likely with a client that reads slowly.
    const root = mkdtempSync(path.join(tmpdir(), 'atrium-blobs-'));
    const bytes = randomBytes(9 * 1024 * 1024 + 321);
    const store = createFsBlobStore(root);
    await store.put('files/sent', Readable.from([bytes]));
    const server = createServer((request, response) => {
      const range = request.url === '/range' ? { start: 1024 * 1024 - 7, end: 7 * 1024 * 1024 + 3 } : undefined;
      void store.get('files/sent', range).then((stream) => stream.pipe(response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetchBody = (url: string, slow: boolean) =>
      new Promise<Buffer>((resolve, reject) => {
        httpGet(`http://127.0.0.1:${port}${url}`, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            if (slow && chunks.length % 16 === 0) {
              response.pause();
              setTimeout(() => response.resume(), 5);
            }
          });
          response.on('end', () => resolve(Buffer.concat(chunks)));
          response.on('error', reject);
        }).on('error', reject);
      });
    try {
      expect(sha(await fetchBody('/whole', false))).toBe(sha(bytes));
      expect(sha(await fetchBody('/whole', true))).toBe(sha(bytes));
      expect(sha(await fetchBody('/range', true))).toBe(sha(bytes.subarray(1024 * 1024 - 7, 7 * 1024 * 1024 + 4)));
      // Read as a plain stream, outside a response, the same bytes come back.
      expect(sha(await buffer(await store.get('files/sent')))).toBe(sha(bytes));
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('takes over a finished local file on the same file system by moving it', () => adoptFrom(tmpdir()));

  it.runIf(otherDevice)('takes over a finished local file on another file system by copying it', () =>
    adoptFrom(otherDevice ?? ''),
  );

  it('stores a file written across many background flushes byte for byte, and leaves nothing when one fails', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'atrium-blobs-'));
    try {
      const store = createFsBlobStore(root, { flushEveryBytes: 256 * 1024 });
      const bytes = randomBytes(9 * 1024 * 1024 + 77);
      expect(await store.put('files/flushed', chunked(bytes))).toEqual({ size: bytes.length });
      expect(sha(await buffer(await store.get('files/flushed')))).toBe(sha(bytes));

      const source = new Readable({ read() {} });
      const pending = store.put('files/cut', source);
      for (let i = 0; i < 16; i += 1) source.push(randomBytes(256 * 1024));
      setTimeout(() => source.destroy(new Error('client went away')), 50);
      await expect(pending).rejects.toThrow('client went away');
      expect(await store.stat('files/cut')).toBeNull();
      expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('sweeps temp files left by a crash, older than the cut-off', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'atrium-blobs-'));
    try {
      const store = createFsBlobStore(root);
      await store.ping();
      mkdirSync(path.join(root, '.tmp'), { recursive: true });
      const old = path.join(root, '.tmp', 'old.part');
      writeFileSync(old, 'partial');
      utimesSync(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      writeFileSync(path.join(root, '.tmp', 'fresh.part'), 'in flight');
      expect(await store.sweepIncomplete(new Date(Date.now() - 60_000))).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
