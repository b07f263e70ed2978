import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import type { FileRecord, FileVersionList, UserFileStats } from '@atrium/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { startS3 } from '../../../test/s3';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function form(bytes: Uint8Array, name = 'data.bin', field = 'file', type = 'application/octet-stream'): FormData {
  const body = new FormData();
  body.append(field, new Blob([bytes], { type }), name);
  return body;
}

/** Every file under the blob folder (temp files included). */
function blobFiles(server: TestServer): string[] {
  const root = path.join(server.dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe.each(dialects())('files API (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;

  const upload = (
    cookie: string,
    bytes: Uint8Array,
    options: { userId?: string; name?: string; json?: boolean } = {},
  ) =>
    server.fetch(`/api/files/upload?userId=${encodeURIComponent(options.userId ?? 'alice')}`, {
      method: 'POST',
      headers: { cookie, ...(options.json === false ? {} : { accept: 'application/json' }) },
      body: form(bytes, options.name),
    });

  const list = async (cookie: string, userId: string) =>
    readJson<FileRecord[]>(await server.fetch(`/api/files/user/${userId}`, { headers: { cookie } }));

  /** Deletes a file (it moves to the trash) and purges it from the trash: its bytes go. */
  const removeForGood = async (cookie: string, id: string) => {
    await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie } });
    await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie } });
  };

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { MAX_UPLOAD_BYTES: String(64 * 1024), USER_QUOTA_BYTES: String(200 * 1024) },
    });
    alice = await server.signInAs({ owner_key: 'alice' });
    bob = await server.signInAs({ owner_key: 'bob' });
    admin = await server.signInAs({ owner_key: 'root-admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  it('uploads, lists, counts, downloads byte for byte and deletes a file', async () => {
    const bytes = randomBytes(40_000);
    const text = await upload(alice, bytes, { name: 'report.bin', json: false });
    expect(text.status).toBe(200);
    const message = await text.text();
    const id = /File uploaded successfully with ID: (\S+)/.exec(message)?.[1];
    expect(id).toBeTruthy();

    const files = await list(alice, 'alice');
    expect(files).toEqual([
      {
        id,
        fileId: id,
        fileName: 'report.bin',
        size: 40_000,
        contentType: 'application/octet-stream',
        uploadDate: expect.any(String),
      },
    ]);
    const stats = await readJson<UserFileStats>(
      await server.fetch('/api/files/user-stats/alice', { headers: { cookie: alice } }),
    );
    expect(stats).toEqual({
      fileCount: 1,
      sizeInBytes: 40_000,
      readableSize: '39.06 KB',
      trashBytes: 0,
      versionBytes: 0,
    });

    const meta = await server.fetch(`/api/files/${id}`, { headers: { cookie: alice } });
    expect(meta.status).toBe(200);
    expect(await meta.json()).toMatchObject({ id, fileName: 'report.bin', size: 40_000 });

    const download = await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-length')).toBe('40000');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="report.bin"; filename*=UTF-8''report.bin`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect(download.headers.get('etag')).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);

    const removed = await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: alice } });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ id, deleted: true });
    expect(await list(alice, 'alice')).toEqual([]);
    expect((await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } })).status).toBe(404);
    // In the trash: not counted as a file, its bytes still counted (the quota) and kept until purged.
    const trashed = await readJson<UserFileStats>(
      await server.fetch('/api/files/user-stats/alice', { headers: { cookie: alice } }),
    );
    expect(trashed).toMatchObject({ fileCount: 0, sizeInBytes: 0, trashBytes: 40_000 });
    expect(blobFiles(server)).toHaveLength(1);
    const purged = await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie: alice } });
    expect(await purged.json()).toEqual({ id, purged: true });
    expect(blobFiles(server)).toEqual([]);
  });

  it('answers JSON with the new record when asked, detects the type from the bytes and keeps the name as a label', async () => {
    const response = await upload(alice, PNG_1PX, { name: '../../etc/passwd\u0000\u202e.txt' });
    expect(response.status).toBe(200);
    const record = await readJson<FileRecord>(response);
    expect(record).toMatchObject({ fileName: 'passwd.txt', contentType: 'image/png', size: PNG_1PX.length });
    expect(record.fileId).toBe(record.id);
    const text = await readJson<FileRecord>(await upload(alice, Buffer.from('hello, world\n'), { name: 'notes.md' }));
    expect(text.contentType).toBe('text/markdown');
    const html = await readJson<FileRecord>(
      await upload(alice, Buffer.from('<html><script>alert(1)</script></html>'), { name: 'x.html' }),
    );
    expect(html.contentType).toBe('text/plain');
    const inline = await server.fetch(`/api/files/download/${html.id}?inline=1`, { headers: { cookie: alice } });
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(inline.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(inline.headers.get('content-security-policy')).toContain('sandbox');
    for (const file of [record, text, html]) {
      await removeForGood(alice, file.id);
    }
  });

  it('encodes non-ASCII names with filename* (RFC 6266)', async () => {
    const record = await readJson<FileRecord>(await upload(alice, Buffer.from('x'), { name: 'résumé final.txt' }));
    const response = await server.fetch(`/api/files/download/${record.id}`, { headers: { cookie: alice } });
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ final.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20final.txt`,
    );
    await response.arrayBuffer();
    await removeForGood(alice, record.id);
  });

  it('serves byte ranges (206) and refuses unsatisfiable ones (416)', async () => {
    const bytes = randomBytes(10_000);
    const { id } = await readJson<FileRecord>(await upload(alice, bytes));
    const get = (range: string) => server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice, range } });

    const middle = await get('bytes=100-199');
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/10000');
    expect(middle.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await middle.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    const open = await get('bytes=9990-');
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(9990))).toBe(true);

    const suffix = await get('bytes=-5');
    expect(suffix.headers.get('content-range')).toBe('bytes 9995-9999/10000');
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(9995))).toBe(true);

    const clamped = await get('bytes=9000-20000');
    expect(clamped.headers.get('content-range')).toBe('bytes 9000-9999/10000');
    await clamped.arrayBuffer();

    for (const bad of ['bytes=10000-', 'bytes=50-10', 'bytes=abc']) {
      const response = await get(bad);
      expect(response.status, bad).toBe(416);
      expect(response.headers.get('content-range')).toBe('bytes */10000');
      expect((await readError(response)).code).toBe('RANGE_NOT_SATISFIABLE');
    }
    await removeForGood(alice, id);
  });

  it('answers conditional requests with 304', async () => {
    const { id } = await readJson<FileRecord>(await upload(alice, randomBytes(500)));
    const first = await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } });
    await first.arrayBuffer();
    const etag = first.headers.get('etag') ?? '';
    const lastModified = first.headers.get('last-modified') ?? '';
    const byEtag = await server.fetch(`/api/files/download/${id}`, {
      headers: { cookie: alice, 'if-none-match': etag },
    });
    expect(byEtag.status).toBe(304);
    const byDate = await server.fetch(`/api/files/download/${id}`, {
      headers: { cookie: alice, 'if-modified-since': lastModified },
    });
    expect(byDate.status).toBe(304);
    const changed = await server.fetch(`/api/files/download/${id}`, {
      headers: { cookie: alice, 'if-none-match': '"other"' },
    });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    const head = await server.fetch(`/api/files/download/${id}`, { method: 'HEAD', headers: { cookie: alice } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('500');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    await removeForGood(alice, id);
  });

  it("keeps users out of each other's files: 403 for another userId, 404 for another's file id", async () => {
    const { id } = await readJson<FileRecord>(await upload(alice, randomBytes(100)));
    for (const url of ['/api/files/user/alice', '/api/files/user-stats/alice']) {
      const response = await server.fetch(url, { headers: { cookie: bob } });
      expect(response.status, url).toBe(403);
      expect((await readError(response)).code).toBe('FORBIDDEN');
    }
    const foreignUpload = await upload(bob, randomBytes(10), { userId: 'alice' });
    expect(foreignUpload.status).toBe(403);
    for (const [method, url] of [
      ['GET', `/api/files/${id}`],
      ['GET', `/api/files/download/${id}`],
      ['DELETE', `/api/files/user/${id}`],
      ['GET', `/api/files/${id}/thumbnail`],
      ['GET', '/api/files/no-such-id'],
    ] as const) {
      const response = await server.fetch(url, { method, headers: { cookie: bob } });
      expect(response.status, `${method} ${url}`).toBe(404);
      expect(await readError(response)).toMatchObject({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    }
    expect(await list(alice, 'alice')).toHaveLength(1);
    // Anonymous callers are asked to sign in.
    expect((await server.fetch('/api/files/user/alice')).status).toBe(401);
    expect((await server.fetch(`/api/files/download/${id}`)).status).toBe(401);
    // An admin manages people, not content: another person's space is refused as to anyone (the spec's admin uploads
    // under its own owner key), and her file is the 404 of an unknown id.
    for (const url of ['/api/files/user/alice', '/api/files/user-stats/alice']) {
      const response = await server.fetch(url, { headers: { cookie: admin } });
      expect(response.status, url).toBe(403);
      expect(await readError(response)).toMatchObject({
        code: 'FORBIDDEN',
        message: 'You can only access your own files.',
      });
    }
    expect((await upload(admin, randomBytes(10), { userId: 'alice' })).status).toBe(403);
    const adminDelete = await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(adminDelete.status).toBe(404);
    expect(await list(alice, 'alice')).toHaveLength(1);
    await removeForGood(alice, id);
    expect(await list(alice, 'alice')).toEqual([]);
  });

  it('refuses files over MAX_UPLOAD_BYTES, over the quota, empty or missing, and stores nothing', async () => {
    const tooBig = await upload(alice, randomBytes(64 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(await readError(tooBig)).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('64.00 KB'),
    });

    const empty = await upload(alice, new Uint8Array());
    expect(empty.status).toBe(400);
    expect((await readError(empty)).message).toMatch(/empty/);

    const wrongField = await server.fetch('/api/files/upload?userId=alice', {
      method: 'POST',
      headers: { cookie: alice },
      body: form(randomBytes(10), 'a.bin', 'other'),
    });
    expect(wrongField.status).toBe(400);
    const noBody = await server.fetch('/api/files/upload?userId=alice', {
      method: 'POST',
      headers: { cookie: alice, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noBody.status).toBe(400);

    // Quota is 200 KiB: three 60 KiB files fit, the fourth does not.
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await upload(alice, randomBytes(60 * 1024));
      expect(response.status).toBe(200);
      ids.push((await readJson<FileRecord>(response)).id);
    }
    const overQuota = await upload(alice, randomBytes(60 * 1024));
    expect(overQuota.status).toBe(413);
    expect(await readError(overQuota)).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining('200.00 KB'),
    });

    expect(await list(alice, 'alice')).toHaveLength(3);
    expect(blobFiles(server)).toHaveLength(3);

    // Two uploads at once that each fit, but not together: the quota still holds.
    const [one, two] = await Promise.all([
      upload(alice, randomBytes(12 * 1024)),
      upload(alice, randomBytes(12 * 1024)),
    ]);
    const statuses = [one.status, two.status];
    expect(statuses).toContain(413);
    for (const response of [one, two]) {
      if (response.status === 200) ids.push((await readJson<FileRecord>(response)).id);
      else await response.arrayBuffer();
    }
    const used = await readJson<UserFileStats>(
      await server.fetch('/api/files/user-stats/alice', { headers: { cookie: alice } }),
    );
    expect(used.sizeInBytes).toBeLessThanOrEqual(200 * 1024);
    expect(blobFiles(server)).toHaveLength(ids.length);
    for (const id of ids) await removeForGood(alice, id);
    expect(blobFiles(server)).toEqual([]);
  });

  it('leaves nothing behind when the client disconnects mid-upload', async () => {
    const boundary = 'atrium-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const url = new URL(server.url);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/files/upload?userId=alice HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${alice}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 50_000 + 100}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(randomBytes(30_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(blobFiles(server).length).toBeGreaterThan(0); // the temp file exists while bytes arrive
    socket.destroy();
    await expect.poll(() => blobFiles(server), { timeout: 5000 }).toEqual([]);
    expect(await list(alice, 'alice')).toEqual([]);
  });

  it('paginates the list newest first with a cursor header', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await readJson<FileRecord>(await upload(bob, Buffer.from(`file ${i}`), { userId: 'bob' }))).id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const seen: string[] = [];
    let next: string | null = '/api/files/user/bob?limit=2';
    let pages = 0;
    while (next) {
      const response = await server.fetch(next, { headers: { cookie: bob } });
      const page = await readJson<FileRecord[]>(response);
      seen.push(...page.map((file) => file.id));
      const cursor = response.headers.get('x-next-cursor');
      next = cursor ? `/api/files/user/bob?limit=2&cursor=${cursor}` : null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    expect((await list(bob, 'bob')).map((file) => file.id)).toEqual([...ids].reverse());
    const bad = await server.fetch('/api/files/user/bob?cursor=nonsense', { headers: { cookie: bob } });
    expect(bad.status).toBe(400);
    for (const id of ids) await removeForGood(bob, id);
  });

  it('makes an image thumbnail once and keeps it in the blob store', async () => {
    const image = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#4f46e5' } })
      .jpeg()
      .toBuffer();
    const { id } = await readJson<FileRecord>(await upload(alice, image, { name: 'photo.jpg' }));
    const first = await server.fetch(`/api/files/${id}/thumbnail`, { headers: { cookie: alice } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([256, 192]);
    expect(blobFiles(server).some((file) => file.includes(`thumbnails${path.sep}${id}.webp`))).toBe(true);
    const again = await server.fetch(`/api/files/${id}/thumbnail`, {
      headers: { cookie: alice, 'if-none-match': first.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const { id: textId } = await readJson<FileRecord>(await upload(alice, Buffer.from('just text')));
    expect((await server.fetch(`/api/files/${textId}/thumbnail`, { headers: { cookie: alice } })).status).toBe(404);
    for (const file of [id, textId]) await removeForGood(alice, file);
    expect(blobFiles(server)).toEqual([]);
  });

  it('reports the blob store in /readyz', async () => {
    const ready = await server.fetch('/readyz', { headers: { cookie: admin } });
    expect(await ready.json()).toMatchObject({ checks: { blobStore: { status: 'ok', message: 'fs' } } });
  });
});

describe('files API on the S3 blob store', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startS3();
    server = await startTestServer({
      env: {
        BLOB_STORE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: 'atrium-files',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('uploads, downloads whole and by range, and deletes', async () => {
    const cookie = await server.signInAs({ owner_key: 'carol' });
    const bytes = randomBytes(6 * 1024 * 1024 + 7);
    const response = await server.fetch('/api/files/upload?userId=carol', {
      method: 'POST',
      headers: { cookie, accept: 'application/json' },
      body: form(bytes, 'big.bin'),
    });
    expect(response.status).toBe(200);
    const { id, size } = await readJson<FileRecord>(response);
    expect(size).toBe(bytes.length);
    const whole = await server.fetch(`/api/files/download/${id}`, { headers: { cookie } });
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await server.fetch(`/api/files/download/${id}`, { headers: { cookie, range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const admin = await server.signInAs({ owner_key: 'root-admin', role: 'admin' });
    const ready = await server.fetch('/readyz', { headers: { cookie: admin } });
    expect(await ready.json()).toMatchObject({ checks: { blobStore: { status: 'ok', message: 's3' } } });
    expect((await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie } })).status).toBe(200);
    expect((await server.fetch(`/api/files/download/${id}`, { headers: { cookie } })).status).toBe(404);
    expect((await server.fetch(`/api/trash/${id}`, { method: 'DELETE', headers: { cookie } })).status).toBe(200);
  });

  it('replaces a file as a version, serves and restores the version, and purges every object with the file', async () => {
    const cookie = await server.signInAs({ owner_key: 'vince' });
    const put = async (bytes: Buffer, query = '') =>
      readJson<FileRecord>(
        await server.fetch(`/api/files/upload?userId=vince${query}`, {
          method: 'POST',
          headers: { cookie, accept: 'application/json' },
          body: form(bytes, 'doc.bin'),
        }),
      );
    const keysBefore = await s3.keys('atrium-files');
    const one = randomBytes(70_000);
    const two = randomBytes(80_000);
    const file = await put(one);
    expect((await put(two, '&onConflict=replace')).id).toBe(file.id);
    expect(await s3.keys('atrium-files')).toHaveLength(keysBefore.length + 2);
    const { versions } = await readJson<FileVersionList>(
      await server.fetch(`/api/files/${file.id}/versions`, { headers: { cookie } }),
    );
    const old = await server.fetch(`/api/files/${file.id}/versions/${versions[0]?.id}/content`, {
      headers: { cookie, range: 'bytes=100-199' },
    });
    expect(old.status).toBe(206);
    expect(Buffer.from(await old.arrayBuffer()).equals(one.subarray(100, 200))).toBe(true);
    const restored = await server.fetch(`/api/files/${file.id}/versions/${versions[0]?.id}/restore`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(restored.status).toBe(200);
    const now = await server.fetch(`/api/files/download/${file.id}`, { headers: { cookie } });
    expect(Buffer.from(await now.arrayBuffer()).equals(one)).toBe(true);
    await server.fetch(`/api/files/user/${file.id}`, { method: 'DELETE', headers: { cookie } });
    expect(await s3.keys('atrium-files')).toHaveLength(keysBefore.length + 2);
    await server.fetch(`/api/trash/${file.id}`, { method: 'DELETE', headers: { cookie } });
    expect((await s3.keys('atrium-files')).sort()).toEqual([...keysBefore].sort());
  });
});

describe('start-up sweep', () => {
  it('removes blobs without metadata and temp files left by a crash, keeping committed files', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-sweep-'));
    try {
      const first = await startTestServer({ dataDir });
      const cookie = await first.signInAs({ owner_key: 'dave' });
      const kept = await readJson<FileRecord>(
        await first.fetch('/api/files/upload?userId=dave', {
          method: 'POST',
          headers: { cookie, accept: 'application/json' },
          body: form(Buffer.from('keep me')),
        }),
      );
      await first.close();
      const blobs = path.join(dataDir, 'blobs');
      writeFileSync(path.join(blobs, 'files', '0b5e4a8e-orphan'), 'no row points here');
      writeFileSync(path.join(blobs, '.tmp', 'interrupted.part'), 'half an upload');

      const second = await startTestServer({ dataDir, env: { UPLOAD_ORPHAN_GRACE_MINUTES: '0' } });
      try {
        await expect
          .poll(() => blobFiles(second).map((file) => path.relative(blobs, file)), { timeout: 5000 })
          .toEqual([path.join('files', kept.id)]);
        const again = await second.signInAs({ owner_key: 'dave' });
        const download = await second.fetch(`/api/files/download/${kept.id}`, { headers: { cookie: again } });
        expect(await download.text()).toBe('keep me');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
