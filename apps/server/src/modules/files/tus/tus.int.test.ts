import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, rawRequest, readError, readJson, startTestServer, type TestServer } from '../../../../test/helpers';
import { S3_TEST_CREDENTIALS, startS3 } from '../../../../test/s3';

const b64 = (value: string) => Buffer.from(value).toString('base64');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const TUS = { 'tus-resumable': '1.0.0' };
const BUCKET = 'atrium-tus';

type S3 = Awaited<ReturnType<typeof startS3>>;
const s3Env = (s3: S3, prefix = '') => ({
  BLOB_STORE: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: BUCKET,
  S3_PREFIX: prefix,
  ...S3_TEST_CREDENTIALS,
});

/** Writes a PATCH by hand and sends only the first `sent` bytes of its body, leaving the request open. */
async function stalledPatch(server: TestServer, location: string, cookie: string, body: Buffer, sent: number) {
  const exchange = await rawRequest(
    server,
    `PATCH ${location} HTTP/1.1\nCookie: ${cookie}\nTus-Resumable: 1.0.0\nUpload-Offset: 0\n` +
      `Content-Type: application/offset+octet-stream\nContent-Length: ${body.length}\n`,
    body.subarray(0, sent),
  );
  // Long enough for the server to receive and store what was sent (nothing is timed here).
  await new Promise((resolve) => setTimeout(resolve, 300));
  return exchange;
}

/** Where the tus copies live: the files under DATA_DIR/tus, or the keys under tus/ and open multipart uploads in the bucket. */
async function tusLeftovers(server: TestServer, s3: S3 | undefined): Promise<string[]> {
  if (!s3) return readdirSync(path.join(server.dataDir, 'tus'));
  const keys = (await s3.keys(BUCKET)).filter((key) => !/^(atrium\/)?files\//.test(key));
  return [...keys, ...(await s3.uploads(BUCKET))];
}

describe.each(dialects().flatMap((dialect) => (['fs', 's3'] as const).map((store) => [dialect, store] as const)))(
  'resumable uploads with tus (%s, %s store)',
  (dialect, store) => {
    let server: TestServer;
    let s3: S3 | undefined;
    let alice: string;
    let bob: string;
    beforeAll(async () => {
      if (store === 's3') s3 = await startS3();
      server = await startTestServer({
        dialect,
        env: { USER_QUOTA_BYTES: String(4 * 1024 * 1024), ...(s3 ? s3Env(s3) : {}) },
      });
      alice = await server.signInAs({ owner_key: 'alice' });
      bob = await server.signInAs({ owner_key: 'bob' });
    });
    afterAll(async () => {
      await server?.close();
      await s3?.close();
    });

    const create = (cookie: string, length: number, userId = 'alice') =>
      server.fetch('/api/files/tus', {
        method: 'POST',
        headers: {
          ...TUS,
          cookie,
          'upload-length': String(length),
          'upload-metadata': `filename ${b64('résumé.bin')},userId ${b64(userId)}`,
        },
      });

    const storedSha256 = async (id: string) =>
      (
        await readJson<{ sha256: string }>(
          await server.fetch(`/api/files/${id}/details`, { headers: { cookie: alice } }),
        )
      ).sha256;

    const offsetOf = async (location: string, cookie = alice) => {
      const head = await server.fetch(location, { method: 'HEAD', headers: { ...TUS, cookie } });
      return { status: head.status, offset: Number(head.headers.get('upload-offset')) };
    };

    it('continues an interrupted upload where it stopped and commits the same file record', async () => {
      const bytes = randomBytes(1024 * 1024 + 17);
      const created = await create(alice, bytes.length);
      expect(created.status).toBe(201);
      const location = created.headers.get('location') ?? '';
      expect(location).toMatch(/^\/api\/files\/tus\/\S+$/);

      // First attempt: the connection drops after 400 kB of the PATCH body.
      const { socket } = await stalledPatch(server, location, alice, bytes, 400_000);
      socket.destroy();

      // The server kept what arrived; the client asks where to continue.
      await expect.poll(async () => (await offsetOf(location)).offset, { timeout: 5000 }).toBe(400_000);
      const { offset } = await offsetOf(location);
      expect(
        await readJson<FileRecord[]>(await server.fetch('/api/files/user/alice', { headers: { cookie: alice } })),
      ).toEqual([]);

      const rest = await server.fetch(location, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie: alice,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes.subarray(offset),
      });
      expect(rest.status).toBe(204);
      const id = rest.headers.get('x-atrium-file-id') ?? '';
      expect(id).not.toBe('');

      const record = await readJson<FileRecord>(await server.fetch(`/api/files/${id}`, { headers: { cookie: alice } }));
      expect(record).toMatchObject({
        id,
        fileName: 'résumé.bin',
        size: bytes.length,
        contentType: 'application/octet-stream',
      });
      const download = await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } });
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
      // The first PATCH failed: its hash so far was dropped and the finished file read again.
      expect(await storedSha256(id)).toBe(sha256(bytes));
      // The tus copy is gone once the file is committed: only the file's blob is left.
      expect((await offsetOf(location)).status).toBe(404);
      expect(await tusLeftovers(server, s3)).toEqual([]);
      if (s3) expect(await s3.keys(BUCKET)).toEqual([expect.stringMatching(/^files\//)]);
      await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: alice } });
      await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie: alice } });
      if (s3) expect(await s3.keys(BUCKET)).toEqual([]);
    });

    it('keeps uploads private and enforces the owner, size and quota at creation', async () => {
      expect((await create(bob, 10, 'alice')).status).toBe(403);
      const created = await create(alice, 10);
      const location = created.headers.get('location') ?? '';
      expect((await offsetOf(location, bob)).status).toBe(404);
      const patch = await server.fetch(location, {
        method: 'PATCH',
        headers: { ...TUS, cookie: bob, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: Buffer.alloc(10),
      });
      expect(patch.status).toBe(404);
      expect(
        (await server.fetch('/api/files/tus', { method: 'POST', headers: { ...TUS, 'upload-length': '5' } })).status,
      ).toBe(401);
      const overQuota = await create(alice, 5 * 1024 * 1024);
      expect(overQuota.status).toBe(413);
      expect(((await overQuota.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
      expect((await server.fetch(location, { method: 'DELETE', headers: { ...TUS, cookie: alice } })).status).toBe(204);
      expect((await offsetOf(location)).status).toBe(404);
      expect(await tusLeftovers(server, s3)).toEqual([]);
    });

    it('refuses a finished upload that no longer fits the quota and leaves nothing behind', async () => {
      const bytes = randomBytes(3 * 1024 * 1024);
      const created = await create(alice, bytes.length);
      expect(created.status).toBe(201);
      // Meanwhile another file takes 2 of the 4 MiB.
      const form = new FormData();
      form.append('file', new Blob([randomBytes(2 * 1024 * 1024)]), 'other.bin');
      const other = await readJson<FileRecord>(
        await server.fetch('/api/files/upload?userId=alice', {
          method: 'POST',
          headers: { cookie: alice, accept: 'application/json' },
          body: form,
        }),
      );
      const finish = await server.fetch(created.headers.get('location') ?? '', {
        method: 'PATCH',
        headers: { ...TUS, cookie: alice, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: bytes,
      });
      expect(finish.status).toBe(413);
      expect(await finish.text()).toMatch(/exceed the storage quota of 4\.00 MB/);
      const files = await readJson<FileRecord[]>(
        await server.fetch('/api/files/user/alice', { headers: { cookie: alice } }),
      );
      expect(files.map((file) => file.id)).toEqual([other.id]);
      expect(await tusLeftovers(server, s3)).toEqual([]);
      if (s3) expect(await s3.keys(BUCKET)).toHaveLength(1);
      else expect(readdirSync(path.join(server.dataDir, 'blobs', 'files'))).toEqual([other.id]);
      await server.fetch(`/api/files/user/${other.id}`, { method: 'DELETE', headers: { cookie: alice } });
      await server.fetch(`/api/trash/${other.id}`, { method: 'DELETE', headers: { cookie: alice } });
    });

    const listOf = async (owner: string, cookie: string) =>
      (await readJson<FileRecord[]>(await server.fetch(`/api/files/user/${owner}`, { headers: { cookie } }))).map(
        (file) => file.fileName,
      );

    it('decides the owner at creation: metadata that reads differently to tus is refused', async () => {
      const post = (cookie: string, metadata: string, body?: Buffer) =>
        server.fetch('/api/files/tus', {
          method: 'POST',
          headers: {
            ...TUS,
            cookie,
            'upload-length': '4',
            'upload-metadata': metadata,
            ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}),
          },
          ...(body ? { body } : {}),
        });
      const evil = `filename ${b64('evil.txt')}`;
      for (const metadata of [
        // A tab-prefixed key is another key to tus, the same key after trimming.
        `${evil},userId ${b64('alice')},\tuserId ${b64('bob')}`,
        `${evil},userId ${b64('bob')},\tuserId ${b64('alice')}`,
        // A repeated key.
        `${evil},userId ${b64('bob')},userId ${b64('alice')}`,
        `${evil},userId ${b64('alice')},userId ${b64('bob')}`,
        // What tus's own parser refuses: a value that is not base64, an empty pair.
        `${evil},userId bob!`,
        `${evil},,userId ${b64('bob')}`,
      ]) {
        for (const body of [undefined, Buffer.from('evil')]) {
          const created = await post(bob, metadata, body);
          expect(created.status, metadata).toBe(400);
          expect((await readError(created)).code).toBe('BAD_REQUEST');
        }
      }
      expect(await listOf('alice', alice)).toEqual([]);
      expect(await listOf('bob', bob)).toEqual([]);
      expect(await tusLeftovers(server, s3)).toEqual([]);

      // What is stored is what the server decided: the file name and the checked place (Bob's personal root
      // folder, as Bob), nothing the client added.
      const created = await post(bob, `${evil},userId ${b64('bob')},owner ${b64('alice')},user`);
      expect(created.status).toBe(201);
      const location = created.headers.get('location') ?? '';
      const head = await server.fetch(location, { method: 'HEAD', headers: { ...TUS, cookie: bob } });
      const stored = head.headers.get('upload-metadata')?.split(',').sort() ?? [];
      const bobRoot = (
        (await (await server.fetch('/api/spaces', { headers: { cookie: bob } })).json()) as {
          rootFolderId: string;
        }[]
      )[0]?.rootFolderId;
      expect(stored.map((pair) => pair.split(' ')[0])).toEqual(['filename', 'folderId', 'uploadedBy', 'userId']);
      expect(stored).toEqual(expect.arrayContaining([evil, `userId ${b64('bob')}`, `folderId ${b64(bobRoot ?? '')}`]));
      expect((await server.fetch(location, { method: 'DELETE', headers: { ...TUS, cookie: bob } })).status).toBe(204);
    });

    it('reads the upload id from the path only, whatever the query string says', async () => {
      const aliceUpload = (await create(alice, 10)).headers.get('location') ?? '';
      const aliceId = aliceUpload.split('/').pop() ?? '';
      const aliceHead = async () => {
        const head = await server.fetch(aliceUpload, { method: 'HEAD', headers: { ...TUS, cookie: alice } });
        return [head.status, head.headers.get('upload-length'), head.headers.get('upload-offset')];
      };
      for (const query of [`?x=/${aliceId}`, `?x=%2F${aliceId}`, `?/${aliceId}`, `?x=/${aliceId}/`]) {
        const bobUpload = (await create(bob, 20, 'bob')).headers.get('location') ?? '';
        const url = `${bobUpload}${query}`;
        // HEAD answers for bob's own upload (20 bytes), not alice's (10).
        const head = await server.fetch(url, { method: 'HEAD', headers: { ...TUS, cookie: bob } });
        expect([head.status, head.headers.get('upload-length')], url).toEqual([200, '20']);
        // PATCH writes bob's upload.
        const patch = await server.fetch(url, {
          method: 'PATCH',
          headers: { ...TUS, cookie: bob, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: Buffer.alloc(5),
        });
        expect([patch.status, patch.headers.get('upload-offset')], url).toEqual([204, '5']);
        expect(await aliceHead()).toEqual([200, '10', '0']);
        // DELETE removes bob's upload, not alice's.
        const removed = await server.fetch(url, { method: 'DELETE', headers: { ...TUS, cookie: bob } });
        expect(removed.status, url).toBe(204);
        expect((await offsetOf(bobUpload, bob)).status).toBe(404);
        expect(await aliceHead()).toEqual([200, '10', '0']);
      }
      expect(await listOf('alice', alice)).toEqual([]);
      expect((await server.fetch(aliceUpload, { method: 'DELETE', headers: { ...TUS, cookie: alice } })).status).toBe(
        204,
      );
    });

    it('hashes and sniffs an upload sent in several PATCHes in order, as the bytes arrive', async () => {
      // A PDF's header first: the content type comes from the first bytes, kept while they were written.
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(600_000)]);
      const created = await create(alice, bytes.length);
      const location = created.headers.get('location') ?? '';
      let id = '';
      for (const [from, to] of [
        [0, 250_000],
        [250_000, 400_000],
        [400_000, bytes.length],
      ] as const) {
        const patch = await server.fetch(location, {
          method: 'PATCH',
          headers: {
            ...TUS,
            cookie: alice,
            'upload-offset': String(from),
            'content-type': 'application/offset+octet-stream',
          },
          body: bytes.subarray(from, to),
        });
        expect(patch.status).toBe(204);
        id = patch.headers.get('x-atrium-file-id') ?? '';
      }
      expect(await storedSha256(id)).toBe(sha256(bytes));
      const record = await readJson<FileRecord>(await server.fetch(`/api/files/${id}`, { headers: { cookie: alice } }));
      expect(record).toMatchObject({ size: bytes.length, contentType: 'application/pdf' });
      await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: alice } });
      await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie: alice } });
    });

    it('answers a single-request upload (creation with upload) with the new file', async () => {
      const bytes = randomBytes(1000);
      const created = await server.fetch('/api/files/tus', {
        method: 'POST',
        headers: {
          ...TUS,
          cookie: alice,
          'upload-length': String(bytes.length),
          'upload-metadata': `filename ${b64('whole.bin')},userId ${b64('alice')}`,
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes,
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('upload-offset')).toBe(String(bytes.length));
      const id = created.headers.get('x-atrium-file-id') ?? '';
      const download = await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } });
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
      expect(await storedSha256(id)).toBe(sha256(bytes));
      expect(await listOf('alice', alice)).toEqual(['whole.bin']);
      expect(await tusLeftovers(server, s3)).toEqual([]);
      await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: alice } });
      await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie: alice } });
    });

    it('answers 404 for upload ids that are not ids', async () => {
      for (const id of ['..%2Fblobs', 'a%00b', 'x'.repeat(65)]) {
        expect((await offsetOf(`/api/files/tus/${id}`)).status).toBe(404);
      }
    });
  },
);

/**
 * Two instances sharing PostgreSQL, Redis and the tus data (the bucket, or one
 * DATA_DIR for the fs store): a PATCH on one instance while a PATCH for the same
 * upload is stalled on the other takes the shared lock over (the stalled request is
 * answered with what it stored), conflicts are clear 409s, and the file is byte-exact.
 */
const shared = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
describe.runIf(shared).each(['fs', 's3'] as const)('tus uploads across two instances (%s store)', (store) => {
  let one: TestServer;
  let two: TestServer;
  let s3: S3 | undefined;
  beforeAll(async () => {
    if (store === 's3') s3 = await startS3();
    const env = {
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      REDIS_CHANNEL_PREFIX: `atrium-test-${randomUUID()}:`,
      ...(s3 ? s3Env(s3, 'atrium/') : {}),
    };
    one = await startTestServer({ dialect: 'postgres', env });
    two = await startTestServer({ databaseUrl: one.databaseUrl, dataDir: one.dataDir, env });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await s3?.close();
  });

  it('hands the upload over between instances without corrupting it', async () => {
    const cookie = await one.signInAs({ owner_key: 'erin' });
    const bytes = randomBytes(1024 * 1024 + 5);
    const created = await one.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        ...TUS,
        cookie,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${b64('shared.bin')},userId ${b64('erin')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';

    // A PATCH on instance two stalls after 300 kB, holding the upload's lock.
    const stalled = await stalledPatch(two, location, cookie, bytes, 300_000);
    try {
      // Another PATCH for the same upload arrives on instance one, from offset 0.
      const competing = await one.fetch(location, {
        method: 'PATCH',
        headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(0, 64 * 1024),
      });
      // It took the lock over: the stalled request was ended with the offset it reached…
      await expect.poll(() => stalled.answer(), { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 204 /);
      const reached = Number(/upload-offset: (\d+)/i.exec(stalled.answer())?.[1]);
      expect(reached).toBe(300_000);
      // …so offset 0 no longer matches: a clear 409, nothing written.
      expect(competing.status).toBe(409);
    } finally {
      stalled.socket.destroy();
    }

    // The client asks either instance where to continue and finishes on the first.
    const head = await two.fetch(location, { method: 'HEAD', headers: { ...TUS, cookie } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(300_000);
    const rest = await one.fetch(location, {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: bytes.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const id = rest.headers.get('x-atrium-file-id') ?? '';
    const download = await two.fetch(`/api/files/download/${id}`, { headers: { cookie } });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await two.fetch(location, { method: 'HEAD', headers: { ...TUS, cookie } })).status).toBe(404);
    expect(await tusLeftovers(one, s3)).toEqual([]);
  });
});
