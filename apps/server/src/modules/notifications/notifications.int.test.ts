import { NOTIFICATION_MESSAGE_MAX, type Notification } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, userIdOf, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import { systemClock } from '../../lib/time';
import { sessionIdOf } from '../auth/sessions.service';
import { createNotificationsRepository } from './notifications.repository';

const json = (cookie: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Whether the server ends the stream within `ms` (the client sees the end of the response). */
const endsWithin = (open: SseStream, ms: number) =>
  Promise.race([open.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(dialects())('notifications (%s)', (dialect) => {
  let server: TestServer;
  let admin: string;
  let alice: string;
  let bob: string;
  const streams: SseStream[] = [];
  const stream = async (cookie: string, init: RequestInit & { query?: string } = {}) => {
    const { query, headers, ...rest } = init;
    const opened = await openSse(`${server.url}/public/api/notifications/stream${query ?? ''}`, {
      ...rest,
      headers: { cookie, ...headers },
    });
    streams.push(opened);
    return opened;
  };
  const publish = (message: string, cookie = admin) =>
    server.fetch(
      '/public/api/notifications',
      json(cookie, { message, timestamp: new Date().toISOString(), type: 'admin' }),
    );

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { NOTIFICATIONS_HEARTBEAT_MS: '100' } });
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    alice = await server.signInAs({ owner_key: 'alice', name: 'Alice' });
    bob = await server.signInAs({ owner_key: 'bob' });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
  });

  it('subscribes the signed-in user idempotently and counts subscribers for admins only', async () => {
    expect((await server.fetch('/public/api/notifications/subscribe', { method: 'POST' })).status).toBe(401);

    const first = await server.fetch('/public/api/notifications/subscribe', json(alice, { userId: 'alice' }));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ subscribed: true, userId: 'alice', push: false });
    const again = await server.fetch('/public/api/notifications/subscribe', json(alice, { userId: 'alice' }));
    expect(again.status).toBe(200);
    await server.fetch('/public/api/notifications/subscribe', json(bob, { userId: 'anonymous' }));
    const insecure = await server.fetch(
      '/public/api/notifications/subscribe',
      json(bob, {
        subscription: { endpoint: 'http://push.example/x', keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } },
      }),
    );
    expect(insecure.status).toBe(400);
    expect((await readError(insecure)).message).toBe('Push subscription endpoints must use https.');

    const count = await server.fetch('/public/api/notifications/subscribers/count', { headers: { cookie: admin } });
    expect(count.status).toBe(200);
    expect(await count.json()).toMatchObject({ count: 2 });

    const refused = await server.fetch('/public/api/notifications/subscribers/count', { headers: { cookie: alice } });
    expect(refused.status).toBe(403);
    expect((await server.fetch('/public/api/notifications/subscribers/count')).status).toBe(401);
  });

  it('refuses to publish for non-admins (403) and anonymous callers (401), and stores nothing', async () => {
    const before = await readJson<Notification[]>(
      await server.fetch('/public/api/notifications', { headers: { cookie: alice } }),
    );
    const refused = await publish('hello from alice', alice);
    expect(refused.status).toBe(403);
    expect(await readError(refused)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only admin users can publish notifications',
    });
    expect((await publish('hello', '')).status).toBe(401);
    const after = await readJson<Notification[]>(
      await server.fetch('/public/api/notifications', { headers: { cookie: alice } }),
    );
    expect(after).toEqual(before);
  });

  it('rejects a blank or too long message with 400 and a clear message', async () => {
    for (const message of ['', '   \n\t ']) {
      const response = await publish(message);
      expect(response.status).toBe(400);
      expect((await readError(response)).message).toBe('Please enter a message to send');
    }
    const long = await publish('x'.repeat(NOTIFICATION_MESSAGE_MAX + 1));
    expect(long.status).toBe(400);
    expect((await readError(long)).message).toBe(`Messages can be at most ${NOTIFICATION_MESSAGE_MAX} characters.`);
    expect((await publish('x'.repeat(NOTIFICATION_MESSAGE_MAX))).status).toBe(200);
    const wrongType = await server.fetch('/public/api/notifications', json(admin, { message: 'hi', type: 'welcome' }));
    expect(wrongType.status).toBe(400);
  });

  it('streams a published notification to every signed-in user, stored first, with id = notification id', async () => {
    expect((await openSse(`${server.url}/public/api/notifications/stream`)).status).toBe(401);
    const aliceStream = await stream(alice);
    const bobStream = await stream(bob);
    expect(aliceStream.status).toBe(200);
    expect(aliceStream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(aliceStream.headers.get('cache-control')).toContain('no-cache');

    const response = await publish('  Deploy at 5 pm  ');
    expect(response.status).toBe(200);
    const published = await readJson<Notification>(response);
    expect(published).toMatchObject({ message: 'Deploy at 5 pm', type: 'admin', id: expect.stringMatching(/^\d+$/) });
    expect(Date.parse(published.timestamp)).not.toBeNaN();

    for (const s of [aliceStream, bobStream]) {
      const [event] = await s.waitForEvents(1);
      expect(event?.id).toBe(published.id);
      expect(JSON.parse(event?.data ?? '')).toEqual(published);
    }
    const feed = await readJson<Notification[]>(
      await server.fetch('/public/api/notifications', { headers: { cookie: bob } }),
    );
    expect(feed[0]).toEqual(published);
    aliceStream.close();
    bobStream.close();
  });

  it('creates the welcome notification once per user and sends it to that user only', async () => {
    const aliceStream = await stream(alice);
    const bobStream = await stream(bob);
    const first = await server.fetch('/public/api/notifications/welcome', {
      method: 'POST',
      headers: { cookie: alice },
    });
    expect(first.status).toBe(200);
    const created = await readJson<{ created: boolean; notification: Notification }>(first);
    expect(created.created).toBe(true);
    expect(created.notification).toMatchObject({ type: 'welcome', message: expect.stringContaining('Alice') });

    const again = await readJson<{ created: boolean; notification: Notification }>(
      await server.fetch('/public/api/notifications/welcome', { method: 'POST', headers: { cookie: alice } }),
    );
    expect(again).toEqual({ created: false, notification: created.notification });
    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        server
          .fetch('/public/api/notifications/welcome', { method: 'POST', headers: { cookie: bob } })
          .then((r) => readJson<{ created: boolean }>(r)),
      ),
    );
    expect(concurrent.filter((r) => r.created)).toHaveLength(1);

    const [event] = await aliceStream.waitForEvents(1);
    expect(JSON.parse(event?.data ?? '')).toEqual(created.notification);
    const [bobEvent] = await bobStream.waitForEvents(1);
    expect(JSON.parse(bobEvent?.data ?? '').type).toBe('welcome');
    await new Promise((r) => setTimeout(r, 200));
    expect(aliceStream.events).toHaveLength(1);
    expect(bobStream.events).toHaveLength(1);

    const bobFeed = await readJson<Notification[]>(
      await server.fetch('/public/api/notifications', { headers: { cookie: bob } }),
    );
    expect(bobFeed.filter((n) => n.type === 'welcome')).toHaveLength(1);
    expect(bobFeed.some((n) => n.id === created.notification.id)).toBe(false);
    aliceStream.close();
    bobStream.close();
  });

  it('replays what a client missed after Last-Event-ID, in order, with no duplicates, then continues live', async () => {
    const first = await stream(alice);
    await publish('before the drop');
    const [seen] = await first.waitForEvents(1);
    first.close();
    await until(() => server.app.notificationHub.size === 0);

    const missed = [];
    for (const text of ['missed one', 'missed two', 'missed three']) {
      missed.push(await readJson<Notification>(await publish(text)));
    }

    const resumed = await stream(alice, { headers: { 'last-event-id': seen?.id ?? '' } });
    const replayed = await resumed.waitForEvents(3);
    expect(replayed.map((e) => e.id)).toEqual(missed.map((n) => n.id));
    expect(replayed.map((e) => (JSON.parse(e.data) as Notification).message)).toEqual([
      'missed one',
      'missed two',
      'missed three',
    ]);
    const live = await readJson<Notification>(await publish('after the reconnect'));
    const all = await resumed.waitForEvents(4);
    expect(all[3]?.id).toBe(live.id);
    await new Promise((r) => setTimeout(r, 200));
    expect(resumed.events.map((e) => e.id)).toEqual([...missed.map((n) => n.id), live.id]);

    // The query parameter works the same (EventSource cannot set headers on a new connection).
    const viaQuery = await stream(alice, { query: `?lastEventId=${missed[1]?.id}` });
    const events = await viaQuery.waitForEvents(2);
    expect(events.map((e) => e.id)).toEqual([missed[2]?.id, live.id]);

    // Without an id (or with a garbage one) a stream starts live, with nothing replayed.
    const fresh = await stream(alice, { headers: { 'last-event-id': 'not-a-number' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(fresh.events).toEqual([]);
  });

  it('delivers in id order with no duplicates when bus messages arrive out of order or twice', async () => {
    const before = server.app.notificationHub.size;
    const live = await stream(bob);
    const repo = createNotificationsRepository(server.app.database.db, server.app.database.dialect, systemClock);
    const rows = [];
    for (const message of ['gap one', 'gap two', 'gap three']) {
      rows.push((await repo.insert({ message, type: 'other', audience: { type: 'all' }, createdBy: null })).row);
    }
    const [one, two, three] = rows;
    if (!one || !two || !three) throw new Error('insert failed');
    // The last one is announced first: the hub fills the gap from the database, in order.
    await server.app.notificationHub.announce(three);
    await server.app.notificationHub.announce(one);
    await server.app.notificationHub.announce(two);
    await server.app.notificationHub.announce(three);
    const events = await live.waitForEvents(3);
    expect(events.map((e) => e.id)).toEqual([one.seq, two.seq, three.seq].map(String));
    await new Promise((r) => setTimeout(r, 200));
    expect(live.events).toHaveLength(3);
    live.close();
    await until(() => server.app.notificationHub.size === before);
  });

  it('keeps idle streams alive with heartbeat comments and drops closed connections at once', async () => {
    const before = server.app.notificationHub.size;
    const idle = await stream(bob);
    expect(server.app.notificationHub.size).toBe(before + 1);
    await idle.waitForComment(/^heartbeat$/, 2000);
    idle.close();
    await until(() => server.app.notificationHub.size === before, 1000);
  });

  it("ends a session's streams within a second when it signs out, and no one else's", async () => {
    const phone = await server.signInAs({ owner_key: 'alice' });
    const laptop = await server.signInAs({ owner_key: 'alice' });
    const onPhone = await stream(phone);
    const onLaptop = await stream(laptop);
    const bobs = await stream(bob);

    const logout = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie: phone } });
    expect(logout.status).toBe(200);
    expect(await endsWithin(onPhone, 1000)).toBe(true);
    expect((await stream(phone)).status).toBe(401);

    // The other session of the same user and other users keep streaming.
    const published = await readJson<Notification>(await publish('after a sign-out'));
    for (const open of [onLaptop, bobs]) {
      const [event] = await open.waitForEvents(1);
      expect(event?.id).toBe(published.id);
    }
    expect(onPhone.events).toEqual([]);
  });

  it('ends the stream of a session that expires (absolute or idle) on the next heartbeat', async () => {
    const db = server.app.database.db;
    const absolute = await server.signInAs({ owner_key: 'alice' });
    const idle = await server.signInAs({ owner_key: 'alice' });
    const keeps = await server.signInAs({ owner_key: 'alice' });
    const [absoluteStream, idleStream, keptStream] = await Promise.all([stream(absolute), stream(idle), stream(keeps)]);
    const idOf = (cookie: string) => sessionIdOf(cookie.slice(cookie.indexOf('=') + 1));
    const longAgo = new Date(Date.now() - server.config.session.idleMs - 60_000).toISOString();
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', idOf(absolute))
      .execute();
    await db.updateTable('sessions').set({ last_seen_at: longAgo }).where('id', '=', idOf(idle)).execute();

    expect(await endsWithin(absoluteStream, 1000)).toBe(true);
    expect(await endsWithin(idleStream, 1000)).toBe(true);
    expect(await endsWithin(keptStream, 300)).toBe(false);
  });

  it('ends every stream of a user on request (e.g. when the user is disabled)', async () => {
    const first = await stream(await server.signInAs({ owner_key: 'alice' }));
    const second = await stream(await server.signInAs({ owner_key: 'alice' }));
    const bobs = await stream(bob);
    const aliceId = await userIdOf(server, 'alice');
    await server.app.notificationHub.endStreamsOf({ userId: aliceId });
    expect(await endsWithin(first, 1000)).toBe(true);
    expect(await endsWithin(second, 1000)).toBe(true);
    expect(await endsWithin(bobs, 300)).toBe(false);
  });
});

describe('notification streams on shutdown', () => {
  it('end cleanly when the server closes, so shutdown does not hang', async () => {
    const server = await startTestServer();
    const cookie = await server.signInAs({ owner_key: 'carol' });
    const open = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie } });
    expect(open.status).toBe(200);
    const started = Date.now();
    await server.close();
    await open.ended;
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
