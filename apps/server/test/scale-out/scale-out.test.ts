import { createHash, randomBytes } from 'node:crypto';
import type { FileRecord, Notification } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readError, readJson, signInDirectly } from '../helpers';
import { openSse, type SseStream } from '../sse';
import { ADMIN_PASSWORD, startTopology, type Instance, type Topology } from './topology';
import { runRollingRestart } from './rolling-restart';

/**
 * The production topology on loopback (docs/DEPLOY.md "Scale-out"): nginx with
 * deploy/nginx/atrium-proxy.conf in front of two Atrium processes (the built bundle,
 * NODE_ENV=production) sharing PostgreSQL, Redis and S3. Every request a client makes
 * goes through nginx unless a step needs one instance in particular.
 * Run by `npm test` (its own tier, after the build) with TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (value: string) => Buffer.from(value).toString('base64');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('scale-out: nginx in front of two instances on PostgreSQL, Redis and S3', () => {
  let topology: Topology;
  let cookie = '';
  const uploaded = new Map<string, Buffer>();
  const streams: SseStream[] = [];
  const published: Notification[] = [];

  const via = (pathname: string, init: RequestInit = {}) =>
    fetch(`${topology.url}${pathname}`, { ...init, headers: { cookie, ...init.headers } });
  const direct = (instance: Instance, pathname: string, init: RequestInit = {}) =>
    fetch(`${instance.url}${pathname}`, { ...init, headers: { cookie, ...init.headers } });

  const publish = async (message: string, send = via) => {
    const response = await send('/public/api/notifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, type: 'admin' }),
    });
    expect(response.status).toBe(200);
    const notification = await readJson<Notification>(response);
    published.push(notification);
    return notification;
  };

  /** Opens the notification stream through nginx until it lands on the wanted instance. */
  const streamOn = async (instance: Instance, lastEventId?: string) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const stream = await openSse(`${topology.url}/public/api/notifications/stream`, {
        headers: { cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      streams.push(stream);
      expect(stream.status).toBe(200);
      if (topology.instanceOf(new Response(null, { headers: stream.headers })) === instance) return stream;
      stream.close();
    }
    throw new Error(`nginx never sent the stream to ${instance.name}`);
  };

  beforeAll(async () => {
    topology = await startTopology();
  }, 240_000);
  afterAll(async () => {
    streams.forEach((stream) => stream.close());
    await topology?.close();
  }, 60_000);

  it('signs the built-in admin in through nginx, and the session holds on both instances', async () => {
    const login = await fetch(`${topology.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^atrium_session=/);
    const served = new Set<Instance | undefined>();
    for (let i = 0; i < 4; i++) {
      const me = await via('/api/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ ownerKey: 'admin', isAdmin: true });
      served.add(topology.instanceOf(me));
    }
    expect(served).toEqual(new Set(topology.instances));
    // The embedded development identity provider is off in production.
    expect(await (await via('/api/auth/config')).json()).toMatchObject({ oidcEnabled: false });
  });

  it('uploads with multipart through nginx and downloads whole and by Range from either instance', async () => {
    for (const size of [1, 3 * 1024 * 1024 + 5]) {
      const bytes = randomBytes(size);
      const form = new FormData();
      form.append('file', new Blob([bytes]), `multipart-${size}.bin`);
      const response = await via('/api/files/upload', {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: form,
      });
      expect(response.status).toBe(200);
      const record = await readJson<FileRecord>(response);
      expect(record.size).toBe(size);
      uploaded.set(record.id, bytes);
    }
    const [id, bytes] = [...uploaded].at(-1) ?? ['', Buffer.alloc(0)];
    for (const instance of topology.instances) {
      const whole = await direct(instance, `/api/files/download/${id}`);
      expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(bytes));
    }
    // An empty file is a client's mistake: a 4xx in the error shape, through nginx too.
    const empty = new FormData();
    empty.append('file', new Blob([]), 'empty.bin');
    const refused = await via('/api/files/upload', { method: 'POST', body: empty });
    expect(refused.status).toBe(400);
    expect((await readError(refused)).message).toBe('The file is empty. Choose a file with content.');
    const ranged = await via(`/api/files/download/${id}`, { headers: { range: 'bytes=1000000-1000099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000000-1000099/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(1_000_000, 1_000_100))).toBe(true);
  });

  it('serves a public link from either instance: unlocked on one, downloaded on the other, counted once across both', async () => {
    if (!cookie) {
      const login = await fetch(`${topology.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    }
    const bytes = randomBytes(2 * 1024 * 1024 + 3);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'linked.bin');
    const uploadedFile = await readJson<FileRecord>(
      await via('/api/files/upload', { method: 'POST', headers: { accept: 'application/json' }, body: form }),
    );
    // Listed with the others: the crash test below checks that every acknowledged upload is still there.
    uploaded.set(uploadedFile.id, bytes);
    const created = await via('/api/links', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fileId: uploadedFile.id, password: 'scale', maxDownloads: 2 }),
    });
    expect(created.status).toBe(201);
    const { token } = await readJson<{ token: string }>(created);
    const [a, b] = topology.instances as [Instance, Instance];
    // Anonymous visitors: no session cookie, only the link's own.
    const unlocked = await fetch(`${a.url}/api/public/links/${token}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'scale' }),
    });
    expect(unlocked.status).toBe(200);
    const linkCookie = (unlocked.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await fetch(`${b.url}/api/public/links/${token}/download`)).status).toBe(401);
    const whole = await fetch(`${b.url}/api/public/links/${token}/download`, { headers: { cookie: linkCookie } });
    expect(whole.status).toBe(200);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(bytes));
    const ranged = await fetch(`${a.url}/api/public/links/${token}/download`, {
      headers: { cookie: linkCookie, range: 'bytes=1000000-1000099' },
    });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(1_000_000, 1_000_100))).toBe(true);
    // Past the bytes the first download allowed, that range was the second download (docs/PRODUCT.md#public-links).
    const third = await fetch(`${b.url}/api/public/links/${token}/download`, { headers: { cookie: linkCookie } });
    expect(third.status).toBe(410);
    expect((await readError(third)).code).toBe('LINK_USED_UP');
  });

  it('continues a tus upload begun on one instance on the other', async () => {
    const [one, two] = topology.instances;
    const bytes = randomBytes(2 * 1024 * 1024 + 123);
    const created = await via('/api/files/tus', {
      method: 'POST',
      headers: {
        ...TUS,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${b64('tus.bin')},userId ${b64('admin')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/api\/files\/tus\/\S+$/);
    const patch = (instance: Instance, offset: number, end: number) =>
      direct(instance, location, {
        method: 'PATCH',
        headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(offset, end),
      });
    const half = 1024 * 1024;
    expect((await patch(one, 0, half)).status).toBe(204);
    const head = await direct(two, location, { method: 'HEAD', headers: TUS });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const last = await patch(two, half, bytes.length);
    expect(last.status).toBe(204);
    const id = last.headers.get('x-atrium-file-id') ?? '';
    expect(id).not.toBe('');
    uploaded.set(id, bytes);
    const download = await via(`/api/files/download/${id}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('delivers a notification published on one instance to a stream held by the other', async () => {
    const [one, two] = topology.instances;
    const stream = await streamOn(one);
    const notification = await publish('published on the other instance', (pathname, init) =>
      direct(two, pathname, init),
    );
    const [event] = await stream.waitForEvents(1, 10_000);
    expect(event?.id).toBe(notification.id);
    expect(JSON.parse(event?.data ?? '{}')).toEqual(notification);
  });

  it('counts failed sign-ins once across both instances, by the client address nginx forwards', async () => {
    const attempt = (headers: Record<string, string> = {}) =>
      fetch(`${topology.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ username: 'mallory', password: 'not the password' }),
      });
    // LOGIN_MAX_FAILURES_PER_IP defaults to 10: the instances take turns, five each.
    const served = new Set<Instance | undefined>();
    for (let i = 0; i < 10; i++) {
      const response = await attempt();
      expect(response.status).toBe(401);
      served.add(topology.instanceOf(response));
    }
    expect(served).toEqual(new Set(topology.instances));
    for (let i = 0; i < 2; i++) {
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // nginx replaces X-Forwarded-For with the peer address: a client cannot pose as another.
    expect((await attempt({ 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
  });

  it('shares a workspace folder on one instance; the other lists, downloads and ends access on revoke', async () => {
    const [one, two] = topology.instances;
    const bob = await signInDirectly(topology.databaseUrl, 'scale-bob');
    const asBob = (instance: Instance, pathname: string, init: RequestInit = {}) =>
      fetch(`${instance.url}${pathname}`, { ...init, headers: { cookie: bob, ...init.headers } });
    const json = { 'content-type': 'application/json' };

    const workspace = await readJson<{ id: string; rootFolderId: string }>(
      await direct(one, '/api/workspaces', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Scale' }) }),
    );
    const folder = await readJson<{ id: string }>(
      await direct(one, '/api/folders', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Reports', workspaceId: workspace.id }),
      }),
    );
    const bytes = randomBytes(256 * 1024 + 7);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'report.bin');
    const upload = await direct(two, `/api/files/upload?workspaceId=${workspace.id}&folderId=${folder.id}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form,
    });
    expect(upload.status).toBe(200);
    const file = await readJson<FileRecord>(upload);

    // Before the share: the same 404 as for a missing file, on both instances.
    for (const instance of topology.instances) {
      expect((await asBob(instance, `/api/files/download/${file.id}`)).status).toBe(404);
    }
    const shared = await direct(one, `/api/folders/${folder.id}/shares/scale-bob`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ role: 'viewer' }),
    });
    expect(shared.status).toBeLessThan(300);
    const listing = await readJson<{ files: FileRecord[] }>(await asBob(two, `/api/folders/${folder.id}`));
    expect(listing.files.map((f) => f.fileName)).toEqual(['report.bin']);
    const seen = await asBob(two, `/api/files/download/${file.id}`);
    expect(sha256(Buffer.from(await seen.arrayBuffer()))).toBe(sha256(bytes));
    const mine = await readJson<{ folders: { id: string }[] }>(await asBob(one, '/api/shared-with-me'));
    expect(mine.folders.map((f) => f.id)).toEqual([folder.id]);

    // Revoked on the other instance: gone everywhere at the next request.
    expect((await direct(two, `/api/folders/${folder.id}/shares/scale-bob`, { method: 'DELETE' })).status).toBe(200);
    expect((await asBob(one, `/api/files/download/${file.id}`)).status).toBe(404);
  });

  it('loses nothing acknowledged when an instance is killed (SIGKILL), and streams resume on the other', async () => {
    const [one, two] = topology.instances;
    const stream = await streamOn(one);
    const before = await publish('before the crash');
    const [seen] = await stream.waitForEvents(1, 10_000);
    expect(seen?.id).toBe(before.id);

    await one.stop('SIGKILL');
    await stream.ended;
    const missed = [await publish('while the stream was away'), await publish('and another')];

    // Every acknowledged upload lists and downloads byte-exact through nginx.
    const list = await via('/api/files/user/admin');
    expect(list.status).toBe(200);
    const records = await readJson<FileRecord[]>(list);
    expect(records.map((r) => r.id).sort()).toEqual([...uploaded.keys()].sort());
    for (const [id, bytes] of uploaded) {
      const download = await via(`/api/files/download/${id}`);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
    }

    // The client resumes after the last id it saw; nginx can only send it to the survivor.
    const resumed = await streamOn(two, before.id);
    const live = await publish('after the resume');
    const events = await resumed.waitForEvents(3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(resumed.events.map((e) => e.id)).toEqual([...missed, live].map((n) => n.id));
    expect(events.map((e) => JSON.parse(e.data) as Notification)).toEqual([...missed, live]);

    await one.start();
  }, 120_000);

  it('restarts each instance in turn under load (1,000 streams, uploads) and loses nothing', async () => {
    const report = await runRollingRestart({ topology, cookie, clients: 1000 });
    // The figures go into docs/DEPLOY.md ("Rolling restarts").
    process.stdout.write(`rolling restart: ${JSON.stringify(report.summary)}\n`);
    expect(report.lostNotifications).toEqual([]);
    expect(report.duplicateNotifications).toEqual([]);
    expect(report.lostUploads).toEqual([]);
    expect(report.clientsBehind).toBe(0);
    // nginx passes a GET that an instance refuses to the other one (proxy_next_upstream): a stream
    // never fails to connect. Failed publishes and uploads are only counted (docs/DEPLOY.md).
    expect(report.streamConnectionErrors).toBe(0);
  }, 300_000);
});
