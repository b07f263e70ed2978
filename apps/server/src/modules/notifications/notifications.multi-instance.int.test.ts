import { randomUUID } from 'node:crypto';
import type { Notification } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';

/**
 * Two server instances sharing one PostgreSQL database and one Redis: a
 * notification published on one reaches streams on the other. Runs when both
 * TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both).
 */
const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

describe.runIf(ready)('notifications across two instances (PostgreSQL + Redis)', () => {
  let one: TestServer;
  let two: TestServer;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '', REDIS_CHANNEL_PREFIX: `atrium-test-${randomUUID()}:` };
    one = await startTestServer({ dialect: 'postgres', env });
    two = await startTestServer({ databaseUrl: one.databaseUrl, env });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await two?.close();
    await one?.close();
  });

  it('reports the Redis bus in readiness', async () => {
    const ready = await two.fetch('/readyz');
    expect(await ready.json()).toMatchObject({ checks: { bus: { status: 'ok' }, database: { status: 'ok' } } });
  });

  it('delivers a notification published on one instance to a subscriber on the other, and on its own', async () => {
    const admin = await one.signInAs({ owner_key: 'admin', role: 'admin' });
    const dana = await two.signInAs({ owner_key: 'dana' });
    const remote = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: dana } });
    const local = await openSse(`${one.url}/public/api/notifications/stream`, { headers: { cookie: dana } });
    streams.push(remote, local);

    const published: Notification[] = [];
    for (const message of ['across instances', 'and again']) {
      const response = await one.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message, type: 'admin' }),
      });
      expect(response.status).toBe(200);
      published.push(await readJson<Notification>(response));
    }
    for (const s of [remote, local]) {
      const events = await s.waitForEvents(2);
      expect(events.map((e) => JSON.parse(e.data) as Notification)).toEqual(published);
      expect(events.map((e) => e.id)).toEqual(published.map((n) => n.id));
    }

    // A client that moves to the other instance resumes where it left off.
    remote.close();
    const missed = await readJson<Notification>(
      await one.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'while moving', type: 'admin' }),
      }),
    );
    const moved = await openSse(`${two.url}/public/api/notifications/stream`, {
      headers: { cookie: dana, 'last-event-id': published[1]?.id ?? '' },
    });
    streams.push(moved);
    const [event] = await moved.waitForEvents(1);
    expect(event?.id).toBe(missed.id);
  });
  it('delivers a workspace notification and a share notice on the other instance to their audience only', async () => {
    const cookieOf = (server: TestServer, key: string) =>
      server.signInAs({ owner_key: key, oidc_issuer: 'https://idp.example.test', oidc_subject: `sub-${key}` });
    const owner = await cookieOf(one, 'mi-owner');
    const member = await cookieOf(two, 'mi-member');
    const outsider = await cookieOf(two, 'mi-outsider');
    const send = (cookie: string, method: string, url: string, body: unknown) =>
      one.fetch(url, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const team = await readJson<{ id: string }>(await send(owner, 'POST', '/api/workspaces', { name: 'Across' }));
    expect((await send(owner, 'PUT', `/api/workspaces/${team.id}/members/mi-member`, { role: 'viewer' })).status).toBe(
      200,
    );
    const onTwo = {
      member: await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: member } }),
      outsider: await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: outsider } }),
    };
    streams.push(onTwo.member, onTwo.outsider);
    const messages = (s: SseStream) => s.events.map((e) => (JSON.parse(e.data) as Notification).message);

    expect(
      (await send(owner, 'POST', '/public/api/notifications', { message: 'Team news', workspaceId: team.id })).status,
    ).toBe(200);
    const folder = await readJson<{ id: string }>(await send(owner, 'POST', '/api/folders', { name: 'Plans' }));
    expect((await send(owner, 'PUT', `/api/folders/${folder.id}/shares/mi-outsider`, { role: 'viewer' })).status).toBe(
      201,
    );
    await onTwo.member.waitForEvents(1);
    await onTwo.outsider.waitForEvents(1);
    // The recipient lists the shared folder on the other instance; the workspace member (no share) cannot.
    expect((await two.fetch(`/api/folders/${folder.id}`, { headers: { cookie: outsider } })).status).toBe(200);
    expect((await two.fetch(`/api/folders/${folder.id}`, { headers: { cookie: member } })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(messages(onTwo.member)).toEqual(['Team news']);
    expect(messages(onTwo.outsider)).toEqual(['mi-owner shared Plans with you']);
  });

  it('ends the stream held by the other instance when its session signs out', async () => {
    const erin = await one.signInAs({ owner_key: 'erin' });
    const onTwo = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    streams.push(onTwo);
    expect(onTwo.status).toBe(200);
    const logout = await one.fetch('/api/auth/logout', { method: 'POST', headers: { cookie: erin } });
    expect(logout.status).toBe(200);
    const ended = await Promise.race([
      onTwo.ended.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 1000)),
    ]);
    expect(ended).toBe(true);
    // Instance two had verified the session for the stream: the sign-out on one made it forget at once.
    const reopened = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    streams.push(reopened);
    expect(reopened.status).toBe(401);
  });
});
