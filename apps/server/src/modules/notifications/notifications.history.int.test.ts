import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Notification, NotificationHistoryEntry, NotificationHistoryPage } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import { canScaleOut, twoInstances } from '../../../test/two-instances';

/** A local push service: paths starting with /fail answer 500 (a push service in trouble), others 201. */
async function startPushService() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(r)) };
}

const browserKeys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};

const until = async (check: () => Promise<boolean>, timeoutMs = 5000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

const json = (cookie: string, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function history(server: TestServer, cookie: string, query = ''): Promise<NotificationHistoryPage> {
  const response = await server.fetch(`/api/admin/notifications${query}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return readJson<NotificationHistoryPage>(response);
}

async function entryOf(server: TestServer, cookie: string, id: string): Promise<NotificationHistoryEntry | undefined> {
  return (await history(server, cookie, '?limit=100')).entries.find((entry) => entry.id === id);
}

async function publish(server: TestServer, cookie: string, body: Record<string, unknown>): Promise<Notification> {
  const response = await server.fetch('/public/api/notifications', json(cookie, { type: 'admin', ...body }));
  expect(response.status).toBe(200);
  return readJson<Notification>(response);
}

describe.each(dialects())('notification history (%s)', (dialect) => {
  let server: TestServer;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let admin: string;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({ dialect, env: { PUSH_ALLOW_LOOPBACK: 'true' } });
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin', name: 'Ada Admin' });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
    await push?.close();
  });

  it('counts the live streams a published notification reached: one open stream, count 1', async () => {
    const alice = await server.signInAs({ owner_key: 'alice' });
    const stream = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: alice } });
    streams.push(stream);
    const published = await publish(server, admin, { message: 'Maintenance at noon' });
    await stream.waitForEvents(1);
    await until(async () => (await entryOf(server, admin, published.id))?.deliveredLive === 1);
    // Give any double count time to show, then check the whole entry.
    await new Promise((r) => setTimeout(r, 200));
    expect(await entryOf(server, admin, published.id)).toEqual({
      id: published.id,
      message: 'Maintenance at noon',
      publishedAt: published.timestamp,
      publishedBy: { userId: 'admin', name: 'Ada Admin' },
      audience: { type: 'all', id: null, name: null },
      deliveredLive: 1,
      pushSent: 0,
      pushFailed: 0,
    });
    stream.close();
  });

  it('counts push sends: an accepted endpoint as sent, a failing one as failed', async () => {
    const bob = await server.signInAs({ owner_key: 'bob' });
    const carol = await server.signInAs({ owner_key: 'carol' });
    for (const [cookie, endpoint] of [
      [bob, `${push.url}/ok/bob`],
      [carol, `${push.url}/fail/carol`],
    ] as const) {
      const keys = browserKeys();
      const subscribed = await server.fetch(
        '/public/api/notifications/subscribe',
        json(cookie, { subscription: { endpoint, keys } }),
      );
      expect(subscribed.status).toBe(200);
    }
    const published = await publish(server, admin, { message: 'Pushed to two browsers' });
    await until(async () => {
      const entry = await entryOf(server, admin, published.id);
      return (entry?.pushSent ?? 0) + (entry?.pushFailed ?? 0) === 2;
    });
    expect(await entryOf(server, admin, published.id)).toMatchObject({ deliveredLive: 0, pushSent: 1, pushFailed: 1 });
    expect(push.received).toEqual(expect.arrayContaining(['/ok/bob', '/fail/carol']));
  });

  it("names a workspace's and a person's audience, leaves out welcomes, and pages newest first", async () => {
    const owner = await server.signInAs({ owner_key: 'hist-owner', name: 'Olga Owner' });
    const team = await readJson<{ id: string }>(await server.fetch('/api/workspaces', json(owner, { name: 'Design' })));
    const toTeam = await publish(server, owner, { message: 'Team stand-up moved', workspaceId: team.id });
    const toBob = await publish(server, admin, { message: 'Your quota was raised', userId: 'bob' });
    const welcome = await server.fetch('/public/api/notifications/welcome', {
      method: 'POST',
      headers: { cookie: owner },
    });
    expect(welcome.status).toBe(200);

    const first = await history(server, admin, '?limit=2');
    expect(first.entries.map((e) => e.id)).toEqual([toBob.id, toTeam.id]);
    expect(first.entries[0]).toMatchObject({
      audience: { type: 'user', id: 'bob', name: 'bob' },
      publishedBy: { userId: 'admin' },
    });
    expect(first.entries[1]).toMatchObject({
      audience: { type: 'workspace', id: team.id, name: 'Design' },
      publishedBy: { userId: 'hist-owner', name: 'Olga Owner' },
    });
    expect(first.nextCursor).toBe(toTeam.id);

    const rest = await history(server, admin, `?limit=100&cursor=${first.nextCursor}`);
    expect(rest.entries.map((e) => e.message)).toEqual(['Pushed to two browsers', 'Maintenance at noon']);
    expect(rest.nextCursor).toBeNull();
    // Welcomes are not published messages.
    const all = await history(server, admin, '?limit=100');
    expect(all.entries.every((e) => !e.message.startsWith('Welcome to Atrium'))).toBe(true);
  });

  it('refuses non-admins (403) and a malformed cursor or limit (400), in the error shape', async () => {
    const user = await server.signInAs({ owner_key: 'hist-user' });
    const forbidden = await server.fetch('/api/admin/notifications', { headers: { cookie: user } });
    expect(forbidden.status).toBe(403);
    expect(await readError(forbidden)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await server.fetch('/api/admin/notifications')).status).toBe(401);
    for (const query of ['?cursor=abc', '?limit=0', '?limit=1000']) {
      const bad = await server.fetch(`/api/admin/notifications${query}`, { headers: { cookie: admin } });
      expect(bad.status, query).toBe(400);
      expect((await readError(bad)).code).toBeTruthy();
    }
  });
});

describe.runIf(canScaleOut)('notification history across two instances (PostgreSQL + Redis)', () => {
  const pair = twoInstances();

  it('sums the live deliveries of every instance on the one row', async () => {
    const admin = await pair.one.signInAs({ owner_key: 'admin', role: 'admin' });
    const dana = await pair.two.signInAs({ owner_key: 'dana' });
    for (const server of [pair.one, pair.two, pair.two]) {
      pair.streams.push(await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: dana } }));
    }
    const published = await publish(pair.one, admin, { message: 'Across instances' });
    for (const stream of pair.streams) await stream.waitForEvents(1);
    await until(async () => (await entryOf(pair.two, admin, published.id))?.deliveredLive === 3);
    await new Promise((r) => setTimeout(r, 200));
    expect((await entryOf(pair.one, admin, published.id))?.deliveredLive).toBe(3);
  });
});
