import { NOTIFICATION_TEXTS, type Notification, type Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  readError,
  readJson,
  sendJson,
  signInPeople,
  startTestServer,
  type TestServer,
} from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';

/**
 * Notification audiences (docs/PRODUCT.md#notification-audiences): everyone, one workspace's current members, or one
 * person. Whoever is not in a notification's audience never sees it: not in the feed, not on a live stream, not in a
 * stream's replay.
 */
describe.each(dialects())('notification audiences (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const streams: SseStream[] = [];
  let team: Workspace;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(cookies, await signInPeople(server, ['owner', 'editor', 'member', 'outsider']));
    const created = await call('owner', 'POST', '/api/workspaces', { name: 'Team' });
    team = await readJson<Workspace>(created);
    for (const [who, role] of [
      ['editor', 'editor'],
      ['member', 'viewer'],
    ]) {
      expect((await call('owner', 'PUT', `/api/workspaces/${team.id}/members/${who}`, { role })).status).toBe(200);
      // A workspace's messages reach a member once they opened it (docs/PRODUCT.md#workspace-messages).
      expect((await call(who ?? '', 'GET', `/api/workspaces/${team.id}`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
  });

  const call = (who: string, method: string, path: string, body?: unknown) =>
    sendJson(server, cookies[who], method, path, body);
  const publish = (who: string, body: Record<string, unknown>) =>
    call(who, 'POST', '/public/api/notifications', { timestamp: new Date().toISOString(), type: 'admin', ...body });
  const feed = async (who: string) =>
    (await readJson<Notification[]>(await call(who, 'GET', '/public/api/notifications?limit=200'))).map(
      (n) => n.message,
    );
  const stream = async (who: string, lastEventId?: string) => {
    const opened = await openSse(`${server.url}/public/api/notifications/stream`, {
      headers: { cookie: cookies[who] ?? '', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
    });
    streams.push(opened);
    return opened;
  };
  const messages = (open: SseStream) => open.events.map((e) => (JSON.parse(e.data) as Notification).message);

  it("delivers a workspace notification to its members only, live and in the feed; others see everyone's", async () => {
    const live = Object.fromEntries(
      await Promise.all(
        ['owner', 'editor', 'member', 'outsider', 'admin'].map(async (who) => [who, await stream(who)] as const),
      ),
    );
    const sent = await publish('owner', { message: 'Team meeting at 10', workspaceId: team.id });
    expect(sent.status).toBe(200);
    // Everyone's notification comes after it: a stream that would have had the workspace one has it first.
    expect((await publish('admin', { message: 'Maintenance tonight' })).status).toBe(200);

    for (const who of ['owner', 'editor', 'member'] as const) {
      await live[who]?.waitForEvents(2);
      expect(messages(live[who] as SseStream)).toEqual(['Team meeting at 10', 'Maintenance tonight']);
      expect(await feed(who)).toEqual(expect.arrayContaining(['Team meeting at 10', 'Maintenance tonight']));
    }
    for (const who of ['outsider', 'admin'] as const) {
      await live[who]?.waitForEvents(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(messages(live[who] as SseStream)).toEqual(['Maintenance tonight']);
      expect(await feed(who)).toContain('Maintenance tonight');
      expect(await feed(who)).not.toContain('Team meeting at 10');
    }
    // A stream that resumes from the start replays only what its user may see.
    const replay = await stream('outsider', '0');
    await replay.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(messages(replay)).not.toContain('Team meeting at 10');
    expect(messages(replay)).toContain('Maintenance tonight');
  });

  it('lets owners and admins publish to a workspace; editors 403, others 404; everyone else admins only', async () => {
    expect(await readError(await publish('editor', { message: 'x', workspaceId: team.id }))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only the owners of this workspace can do that.',
    });
    expect((await publish('member', { message: 'x', workspaceId: team.id })).status).toBe(403);
    expect((await readError(await publish('outsider', { message: 'x', workspaceId: team.id }))).code).toBe(
      'WORKSPACE_NOT_FOUND',
    );
    expect((await readError(await publish('admin', { message: 'x', workspaceId: 'missing' }))).code).toBe(
      'WORKSPACE_NOT_FOUND',
    );
    // Without an audience: the spec's admin-only publish, unchanged.
    expect(await readError(await publish('owner', { message: 'to all' }))).toMatchObject({
      code: 'FORBIDDEN',
      message: NOTIFICATION_TEXTS.adminOnly,
    });
    expect((await publish('owner', { message: 'x', workspaceId: team.id, userId: 'member' })).status).toBe(400);
    expect((await publish('owner', { message: 'x', userId: 'member' })).status).toBe(403);
    expect((await publish('admin', { message: '   ', workspaceId: team.id })).status).toBe(400);
    for (const who of ['outsider', 'admin', 'editor']) {
      expect(await feed(who)).not.toContain('x');
    }

    expect((await publish('admin', { message: 'From the admins to Team', workspaceId: team.id })).status).toBe(200);
    expect(await feed('member')).toContain('From the admins to Team');
    expect(await feed('outsider')).not.toContain('From the admins to Team');
    expect(await feed('admin')).not.toContain('From the admins to Team');
  });

  it('delivers a notification for one person to that person only', async () => {
    const outsider = await stream('outsider');
    const member = await stream('member');
    expect((await publish('admin', { message: 'Just for you', userId: 'outsider' })).status).toBe(200);
    expect((await readError(await publish('admin', { message: 'x', userId: 'nobody' }))).code).toBe('USER_NOT_FOUND');
    expect((await publish('admin', { message: 'After it' })).status).toBe(200);
    await outsider.waitForEvents(2);
    expect(messages(outsider)).toEqual(['Just for you', 'After it']);
    await member.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(messages(member)).toEqual(['After it']);
    expect(await feed('member')).not.toContain('Just for you');
  });

  it("follows the workspace's current members: a removed member no longer sees its notifications", async () => {
    expect((await publish('owner', { message: 'Before leaving', workspaceId: team.id })).status).toBe(200);
    expect(await feed('member')).toContain('Before leaving');
    expect((await call('member', 'DELETE', `/api/workspaces/${team.id}/members/member`)).status).toBe(200);
    expect(await feed('member')).not.toContain('Before leaving');
    const member = await stream('member');
    expect((await publish('owner', { message: 'After leaving', workspaceId: team.id })).status).toBe(200);
    expect((await publish('admin', { message: 'Closing note' })).status).toBe(200);
    await member.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(messages(member)).toEqual(['Closing note']);
  });
});
