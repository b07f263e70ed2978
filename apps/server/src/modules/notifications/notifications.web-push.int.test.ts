import { verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Notification } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { browserKeys, decryptWebPush } from '../../../test/web-push';

interface PushRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A local push service: records what it receives; /gone answers 410 like an expired subscription,
 * paths in `failing` answer 500 like a push service in trouble.
 */
async function startPushService() {
  const received: PushRequest[] = [];
  const failing = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith('/gone') ? 410 : failing.has(req.url ?? '') ? 500 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, failing, close: () => new Promise((r) => server.close(r)) };
}

/** Checks the VAPID Authorization header (RFC 8292): an ES256 JWT signed by the server's key. */
function checkVapid(header: string | undefined, publicKey: string, endpointOrigin: string) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  expect(match, `authorization header ${header}`).not.toBeNull();
  const [, token = '', k] = match ?? [];
  expect(k).toBe(publicKey);
  const [head = '', claims = '', signature = ''] = token.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: jwk, format: 'jwk', dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(valid).toBe(true);
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(payload.aud).toBe(endpointOrigin);
  expect(payload.exp * 1000).toBeGreaterThan(Date.now());
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.each(dialects())('Web Push (%s)', (dialect) => {
  let server: TestServer;
  let push: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({ dialect, env: { PUSH_ALLOW_LOOPBACK: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
    await push?.close();
  });

  it('serves the VAPID public key generated into DATA_DIR/secrets', async () => {
    const response = await server.fetch('/public/api/notifications/vapid-public-key');
    expect(response.status).toBe(200);
    const { publicKey } = await readJson<{ publicKey: string }>(response);
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const stored = JSON.parse(readFileSync(path.join(server.dataDir, 'secrets', 'vapid-keys.json'), 'utf8'));
    expect(stored.publicKey).toBe(publicKey);
  });

  it('encrypts the notification for each subscribed browser and removes an expired subscription', async () => {
    const { publicKey } = await readJson<{ publicKey: string }>(
      await server.fetch('/public/api/notifications/vapid-public-key'),
    );
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const alice = await server.signInAs({ owner_key: 'alice' });
    const bob = await server.signInAs({ owner_key: 'bob' });
    const aliceKeys = browserKeys();
    const bobKeys = browserKeys();
    const subscribe = async (cookie: string, endpoint: string, keys: ReturnType<typeof browserKeys>) => {
      const response = await server.fetch('/public/api/notifications/subscribe', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          userId: 'x',
          subscription: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.authText } },
        }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ push: true });
    };
    await subscribe(alice, `${push.url}/ok/alice`, aliceKeys);
    await subscribe(bob, `${push.url}/gone/bob`, bobKeys);

    const badKeys = await server.fetch('/public/api/notifications/subscribe', {
      method: 'POST',
      headers: { cookie: bob, 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: { endpoint: 'not a url', keys: { p256dh: 'x', auth: 'y' } } }),
    });
    expect(badKeys.status).toBe(400);

    const published = await readJson<Notification>(
      await server.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Servers restart at 18:00 — save your work ✨', type: 'admin' }),
      }),
    );

    await until(() => push.received.length >= 2);
    const toAlice = push.received.find((r) => r.path === '/ok/alice');
    expect(toAlice).toBeDefined();
    if (!toAlice) return;
    expect(toAlice.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(toAlice.headers.ttl)).toBeGreaterThan(0);
    checkVapid(toAlice.headers.authorization, publicKey, push.url);
    // The ciphertext does not contain the message in clear.
    expect(toAlice.body.includes(Buffer.from('Servers restart'))).toBe(false);
    expect(JSON.parse(decryptWebPush(toAlice.body, aliceKeys))).toEqual(published);

    const db = server.app.database.db;
    await until(async () => {
      const rows = await db.selectFrom('push_subscriptions').select('endpoint').execute();
      return rows.length === 1;
    });
    const remaining = await db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(remaining.map((r) => r.endpoint)).toEqual([`${push.url}/ok/alice`]);
  });
  it("pushes a workspace notification to its members' browsers only", async () => {
    const cookieOf = (key: string) =>
      server.signInAs({ owner_key: key, oidc_issuer: 'https://idp.example.test', oidc_subject: `sub-${key}` });
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const [owner, member, outsider] = await Promise.all(['ws-owner', 'ws-member', 'ws-outsider'].map(cookieOf));
    const send = (cookie: string, url: string, body: unknown, method = 'POST') =>
      server.fetch(url, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const team = await readJson<{ id: string }>(await send(owner ?? '', '/api/workspaces', { name: 'Pushers' }));
    expect(
      (await send(owner ?? '', `/api/workspaces/${team.id}/members/ws-member`, { role: 'viewer' }, 'PUT')).status,
    ).toBe(200);
    // Its messages are pushed once the member opened the workspace (docs/PRODUCT.md#workspace-messages).
    expect((await server.fetch(`/api/workspaces/${team.id}`, { headers: { cookie: member ?? '' } })).status).toBe(200);
    const keys = { member: browserKeys(), outsider: browserKeys() };
    for (const [who, cookie] of [
      ['member', member],
      ['outsider', outsider],
    ] as const) {
      const subscribed = await send(cookie ?? '', '/public/api/notifications/subscribe', {
        subscription: {
          endpoint: `${push.url}/ok/ws-${who}`,
          keys: { p256dh: keys[who].p256dh, auth: keys[who].authText },
        },
      });
      expect(subscribed.status).toBe(200);
    }
    const pushedTo = (who: 'member' | 'outsider') =>
      push.received
        .filter((r) => r.path === `/ok/ws-${who}`)
        .map((r) => (JSON.parse(decryptWebPush(r.body, keys[who])) as Notification).message);

    expect(
      (await send(owner ?? '', '/public/api/notifications', { message: 'Team only', workspaceId: team.id })).status,
    ).toBe(200);
    expect((await send(admin, '/public/api/notifications', { message: 'For everyone' })).status).toBe(200);
    await until(() => pushedTo('member').length >= 2 && pushedTo('outsider').length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(pushedTo('member').sort()).toEqual(['For everyone', 'Team only']);
    expect(pushedTo('outsider')).toEqual(['For everyone']);
  });

  it('removes a subscription after 5 failed sends in a row; a delivered one starts the count again', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const erin = await server.signInAs({ owner_key: 'erin' });
    const keys = browserKeys();
    const pathname = '/flaky/erin';
    for (const endpoint of [`${push.url}${pathname}`, `${push.url}/ok/erin-laptop`]) {
      const subscribed = await server.fetch('/public/api/notifications/subscribe', {
        method: 'POST',
        headers: { cookie: erin, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authText } } }),
      });
      expect(subscribed.status).toBe(200);
    }
    const db = server.app.database.db;
    const failedSends = async () =>
      (
        await db
          .selectFrom('push_subscriptions')
          .select('failed_sends')
          .where('endpoint', '=', `${push.url}${pathname}`)
          .executeTakeFirst()
      )?.failed_sends;
    const attempts = () => push.received.filter((r) => r.path === pathname).length;
    const publishAndSettle = async (expectedAttempts: number, expectedFailures: number | undefined) => {
      const response = await server.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message: `attempt ${expectedAttempts}`, type: 'admin' }),
      });
      expect(response.status).toBe(200);
      await until(async () => attempts() === expectedAttempts && (await failedSends()) === expectedFailures);
    };

    push.failing.add(pathname);
    for (let i = 1; i <= 4; i++) await publishAndSettle(i, i);
    push.failing.delete(pathname);
    await publishAndSettle(5, 0); // delivered: the run of failures ends
    push.failing.add(pathname);
    for (let i = 1; i <= 4; i++) await publishAndSettle(5 + i, i);
    await publishAndSettle(10, undefined); // the fifth failure in a row removes it

    // Nothing more is sent to it, even once the push service answers again.
    push.failing.delete(pathname);
    const laptop = () => push.received.filter((r) => r.path === '/ok/erin-laptop').length;
    await server.fetch('/public/api/notifications', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'after removal', type: 'admin' }),
    });
    await until(() => laptop() === 11); // erin's other browser got every notification
    await new Promise((r) => setTimeout(r, 300));
    expect(attempts()).toBe(10);
  });

  it('still refuses private and link-local endpoints with the loopback escape hatch on', async () => {
    const keys = browserKeys();
    const dave = await server.signInAs({ owner_key: 'dave' });
    for (const endpoint of ['http://10.0.0.1/push', 'https://169.254.169.254/', `http://[::ffff:a9fe:a9fe]/push`]) {
      const response = await server.fetch('/public/api/notifications/subscribe', {
        method: 'POST',
        headers: { cookie: dave, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authText } } }),
      });
      expect(response.status, endpoint).toBe(400);
    }
  });

  it("keeps alice's subscription hers when bob registers the same endpoint with other keys", async () => {
    const alice = await server.signInAs({ owner_key: 'alice-9' });
    const bob = await server.signInAs({ owner_key: 'bob-9' });
    const aliceKeys = browserKeys();
    const endpoint = `${push.url}/ok/alice-browser`;
    const subscribe = async (cookie: string, keys: ReturnType<typeof browserKeys>) => {
      const response = await server.fetch('/public/api/notifications/subscribe', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authText } } }),
      });
      expect(response.status).toBe(200);
      return readJson<{ push: boolean }>(response);
    };
    expect(await subscribe(alice, aliceKeys)).toMatchObject({ push: true });
    // Bob knows the endpoint but not the browser's keys: nothing moves.
    expect(await subscribe(bob, browserKeys())).toMatchObject({ push: false });

    const welcome = async (cookie: string) =>
      (
        await readJson<{ notification: Notification }>(
          await server.fetch('/public/api/notifications/welcome', { method: 'POST', headers: { cookie } }),
        )
      ).notification;
    const before = push.received.length;
    const bobsWelcome = await welcome(bob);
    const alicesWelcome = await welcome(alice);
    await until(() => push.received.slice(before).some((r) => r.path === '/ok/alice-browser'));
    await new Promise((r) => setTimeout(r, 300)); // bob's welcome, had it gone there, would be in by now
    const delivered = push.received.slice(before).filter((r) => r.path === '/ok/alice-browser');
    // Only alice's own welcome reaches her browser, encrypted with her keys.
    expect(delivered.map((r) => JSON.parse(decryptWebPush(r.body, aliceKeys)) as Notification)).toEqual([
      alicesWelcome,
    ]);
    expect(bobsWelcome.message).toContain('bob-9');

    // The same browser (same keys) may move to whoever signs in on it.
    expect(await subscribe(bob, aliceKeys)).toMatchObject({ push: true });
  });
});

describe.each(dialects())('Web Push endpoints the server refuses (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 400 for private, loopback, link-local, IP-literal and http endpoints, and stores nothing', async () => {
    const carol = await server.signInAs({ owner_key: 'carol' });
    const keys = browserKeys();
    const refused: [string, RegExp][] = [
      ['https://127.0.0.1:8443/anything', /host name, not by IP address/],
      ['https://10.0.0.1/push', /host name, not by IP address/],
      ['https://169.254.169.254/latest/meta-data/', /host name, not by IP address/],
      ['https://[::1]/push', /host name, not by IP address/],
      ['https://[::ffff:127.0.0.1]/push', /host name, not by IP address/],
      ['https://[fd00::1]/push', /host name, not by IP address/],
      ['https://2130706433/push', /host name, not by IP address/],
      ['https://0x7f.0.0.1/push', /host name, not by IP address/],
      ['https://0177.0.0.1/push', /host name, not by IP address/],
      ['https://localhost:8443/push', /public internet/],
      ['http://push.example.com/push', /must use https/],
    ];
    for (const [endpoint, message] of refused) {
      const response = await server.fetch('/public/api/notifications/subscribe', {
        method: 'POST',
        headers: { cookie: carol, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authText } } }),
      });
      expect(response.status, endpoint).toBe(400);
      const error = await readError(response);
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message, endpoint).toMatch(message);
    }
    const db = server.app.database.db;
    expect(await db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('notification_subscribers').selectAll().execute()).toEqual([]);
  });
});
