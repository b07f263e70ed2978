import type { SubscriberCount } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import { systemClock } from '../../lib/time';
import { createNotificationsRepository } from './notifications.repository';

describe.each(dialects())('subscriber count: live streams and push browsers (%s)', (dialect) => {
  let server: TestServer;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
  });

  const counts = async (admin: string) => {
    const response = await server.fetch('/public/api/notifications/subscribers/count', { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    return readJson<SubscriberCount>(response);
  };
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
  };

  it('counts the dashboards open now and the browsers subscribed to push, beside the subscribed users', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const alice = await server.signInAs({ owner_key: 'alice' });
    expect(await counts(admin)).toEqual({ count: 0, pushBrowsers: 0, openStreams: 0 });

    // Two dashboards live (nobody subscribed): the count the admin sees is no longer just 0.
    for (const cookie of [admin, alice]) {
      streams.push(await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie } }));
    }
    expect(await counts(admin)).toEqual({ count: 0, pushBrowsers: 0, openStreams: 2 });

    // Alice subscribes in two browsers that get Web Push.
    const subscribe = await server.fetch('/public/api/notifications/subscribe', {
      method: 'POST',
      headers: { cookie: alice, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'alice' }),
    });
    expect(subscribe.status).toBe(200);
    const aliceId = (await readJson<{ id: string }>(await server.fetch('/api/me', { headers: { cookie: alice } }))).id;
    const repo = createNotificationsRepository(server.app.database.db, server.app.database.dialect, systemClock);
    for (const browser of ['one', 'two']) {
      await repo.upsertPushSubscription(aliceId, {
        endpoint: `https://push.example/${browser}`,
        p256dh: 'B'.repeat(87),
        auth: 'a'.repeat(22),
      });
    }
    expect(await counts(admin)).toEqual({ count: 1, pushBrowsers: 2, openStreams: 2 });

    // A dashboard closes: the live figure follows.
    streams.pop()?.close();
    await until(async () => (await counts(admin)).openStreams === 1);
    expect(await counts(admin)).toEqual({ count: 1, pushBrowsers: 2, openStreams: 1 });
  });
});
