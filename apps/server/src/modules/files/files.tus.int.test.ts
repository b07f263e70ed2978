import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';

const b64 = (value: string) => Buffer.from(value).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

describe.each(dialects())('resumable uploads with tus (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { USER_QUOTA_BYTES: String(4 * 1024 * 1024) } });
    alice = await server.signInAs({ owner_key: 'alice' });
    bob = await server.signInAs({ owner_key: 'bob' });
  });
  afterAll(async () => server?.close());

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
    const url = new URL(server.url);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `PATCH ${location} HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${alice}\r\nTus-Resumable: 1.0.0\r\n` +
        `Upload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${bytes.length}\r\n\r\n`,
    );
    socket.write(bytes.subarray(0, 400_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
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
    // The tus copy is gone once the file is committed.
    expect((await offsetOf(location)).status).toBe(404);
    await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: alice } });
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
  });
});
