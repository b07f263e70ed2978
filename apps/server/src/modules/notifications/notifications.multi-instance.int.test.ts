import type { Notification, NotificationInbox } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import { readJson, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import { canScaleOut, twoInstances } from '../../../test/two-instances';

/**
 * Two server instances sharing one PostgreSQL database and one Redis: a
 * notification published on one reaches streams on the other. Runs when both
 * TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both).
 */
describe.runIf(canScaleOut)('notifications across two instances (PostgreSQL + Redis)', () => {
  const pair = twoInstances();

  it('reports the Redis bus in readiness', async () => {
    const ready = await pair.two.fetch('/readyz');
    expect(await ready.json()).toMatchObject({ checks: { bus: { status: 'ok' }, database: { status: 'ok' } } });
  });

  it('delivers a notification published on one instance to a subscriber on the other, and on its own', async () => {
    const admin = await pair.one.signInAs({ owner_key: 'admin', role: 'admin' });
    const dana = await pair.two.signInAs({ owner_key: 'dana' });
    const remote = await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: dana } });
    const local = await openSse(`${pair.one.url}/public/api/notifications/stream`, { headers: { cookie: dana } });
    pair.streams.push(remote, local);

    const published: Notification[] = [];
    for (const message of ['across instances', 'and again']) {
      const response = await pair.one.fetch('/public/api/notifications', {
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
      await pair.one.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'while moving', type: 'admin' }),
      }),
    );
    const moved = await openSse(`${pair.two.url}/public/api/notifications/stream`, {
      headers: { cookie: dana, 'last-event-id': published[1]?.id ?? '' },
    });
    pair.streams.push(moved);
    const [event] = await moved.waitForEvents(1);
    expect(event?.id).toBe(missed.id);
  });
  it('keeps read state on the server: marked read on one instance, read on the other', async () => {
    const admin = await pair.one.signInAs({ owner_key: 'admin', role: 'admin' });
    const erin = await pair.one.signInAs({ owner_key: 'erin' });
    const erinElsewhere = await pair.two.signInAs({ owner_key: 'erin' });
    const sent = await readJson<Notification>(
      await pair.one.fetch('/public/api/notifications', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'for erin', type: 'admin', userId: 'erin' }),
      }),
    );
    const marked = await pair.one.fetch(`/public/api/notifications/${sent.id}/read`, {
      method: 'POST',
      headers: { cookie: erin },
    });
    expect(marked.status).toBe(200);
    const inbox = await readJson<NotificationInbox>(
      await pair.two.fetch('/public/api/notifications/inbox', { headers: { cookie: erinElsewhere } }),
    );
    expect(inbox.items.find((n) => n.id === sent.id)).toEqual(expect.objectContaining({ read: true }));
  });

  it('delivers a workspace notification and a share notice on the other instance to their audience only', async () => {
    const cookieOf = (server: TestServer, key: string) =>
      server.signInAs({ owner_key: key, oidc_issuer: 'https://idp.example.test', oidc_subject: `sub-${key}` });
    const owner = await cookieOf(pair.one, 'mi-owner');
    const member = await cookieOf(pair.two, 'mi-member');
    const outsider = await cookieOf(pair.two, 'mi-outsider');
    const send = (cookie: string, method: string, url: string, body: unknown) =>
      pair.one.fetch(url, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const team = await readJson<{ id: string }>(await send(owner, 'POST', '/api/workspaces', { name: 'Across' }));
    expect((await send(owner, 'PUT', `/api/workspaces/${team.id}/members/mi-member`, { role: 'viewer' })).status).toBe(
      200,
    );
    // Its messages reach the member once they opened the workspace (docs/PRODUCT.md#workspace-messages).
    expect((await pair.two.fetch(`/api/workspaces/${team.id}`, { headers: { cookie: member } })).status).toBe(200);
    const onTwo = {
      member: await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: member } }),
      outsider: await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: outsider } }),
    };
    pair.streams.push(onTwo.member, onTwo.outsider);
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
    expect((await pair.two.fetch(`/api/folders/${folder.id}`, { headers: { cookie: outsider } })).status).toBe(200);
    expect((await pair.two.fetch(`/api/folders/${folder.id}`, { headers: { cookie: member } })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(messages(onTwo.member)).toEqual(['Team news']);
    expect(messages(onTwo.outsider)).toEqual(['mi-owner shared Plans with you']);
  });

  it('ends the stream held by the other instance when its session signs out', async () => {
    const erin = await pair.one.signInAs({ owner_key: 'erin' });
    const onTwo = await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    pair.streams.push(onTwo);
    expect(onTwo.status).toBe(200);
    const logout = await pair.one.fetch('/api/auth/logout', { method: 'POST', headers: { cookie: erin } });
    expect(logout.status).toBe(200);
    const ended = await Promise.race([
      onTwo.ended.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 1000)),
    ]);
    expect(ended).toBe(true);
    // Instance two had verified the session for the stream: the sign-out on one made it forget at once.
    const reopened = await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    pair.streams.push(reopened);
    expect(reopened.status).toBe(401);
  });
});
