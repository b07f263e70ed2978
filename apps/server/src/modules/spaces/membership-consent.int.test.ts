import { WORKSPACE_MESSAGE_LIMITS, type Member, type Notification, type Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  expectJson,
  readError,
  sendJson,
  signInPeople,
  startTestServer,
  type TestServer,
} from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import { browserKeys, decryptWebPush, startPushService } from '../../../test/web-push';

const SPOOF = 'SPOOF: Your password expires today. Sign in again at the link below.';

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * Consent to workspace membership (docs/PRODUCT.md#workspace-members, #workspace-messages): the person added is
 * told who added them to what and can leave; a workspace's messages are typed apart from admin announcements, name
 * the workspace and the sender, are rate-limited, and do not reach someone who never opened the workspace; with the
 * admin's setting on, adding someone only invites them.
 */
describe.each(dialects())('consent to workspace membership (%s)', (dialect) => {
  let server: TestServer;
  let push: Awaited<ReturnType<typeof startPushService>>;
  const cookies: Record<string, string> = {};
  const streams: SseStream[] = [];
  const aliceKeys = browserKeys();

  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({ dialect, env: { PUSH_ALLOW_LOOPBACK: 'true' } });
    Object.assign(
      cookies,
      await signInPeople(server, ['eve', 'alice', 'bob', 'carol'], (key) =>
        key === 'eve' ? 'Eve Example' : key[0]?.toUpperCase() + key.slice(1),
      ),
    );
    const subscribed = await call('alice', 'POST', '/public/api/notifications/subscribe', {
      subscription: {
        endpoint: `${push.url}/alice`,
        expirationTime: null,
        keys: { p256dh: aliceKeys.p256dh, auth: aliceKeys.authText },
      },
    });
    expect(subscribed.status).toBe(200);
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
    await push?.close();
  });

  const call = (who: string, method: string, path: string, body?: unknown) =>
    sendJson(server, cookies[who], method, path, body);
  const feed = (who: string) => expectJson<Notification[]>(call(who, 'GET', '/public/api/notifications?limit=200'));
  const stream = async (who: string) => {
    const opened = await openSse(`${server.url}/public/api/notifications/stream`, {
      headers: { cookie: cookies[who] ?? '' },
    });
    streams.push(opened);
    return opened;
  };
  const received = (open: SseStream) => open.events.map((e) => JSON.parse(e.data) as Notification);
  const pushedTo = (path: string) =>
    push.received
      .filter((r) => r.path === path)
      .map((r) => JSON.parse(decryptWebPush(r.body, aliceKeys)) as Notification);
  const setting = (membersMustAccept: boolean) =>
    expectJson(call('admin', 'PUT', '/api/admin/settings', { membersMustAccept }));
  const createWorkspace = (who: string, name: string) =>
    expectJson<Workspace>(call(who, 'POST', '/api/workspaces', { name }), 201);
  const publish = (who: string, workspaceId: string, message: string) =>
    call(who, 'POST', '/public/api/notifications', { message, type: 'admin', workspaceId });
  const audit = async (action: string) =>
    (
      await expectJson<{ entries: { action: string; actor: string; details: Record<string, unknown> }[] }>(
        call('admin', 'GET', `/api/admin/audit?action=${action}&limit=200`),
      )
    ).entries;

  it('tells alice who added her to what, and keeps the spoof out of her feed, stream and push until she opens it', async () => {
    const live = await stream('alice');
    const team = await createWorkspace('eve', 'Atrium Security Team');
    const added = await expectJson<Member>(
      call('eve', 'PUT', `/api/workspaces/${team.id}/members/alice`, { role: 'editor' }),
    );
    expect(added).toMatchObject({ ownerKey: 'alice', role: 'editor', status: 'member' });

    // The membership notice: typed apart, naming eve and the workspace, live, in the feed and pushed.
    const notice = {
      type: 'membership',
      message: 'Eve Example added you to Atrium Security Team (editor)',
      workspace: { id: team.id, name: 'Atrium Security Team' },
      sender: { name: 'Eve Example' },
      membership: { role: 'editor', state: 'added' },
    };
    await live.waitForEvents(1);
    expect(received(live)[0]).toMatchObject(notice);
    expect((await feed('alice'))[0]).toMatchObject(notice);
    await until(() => pushedTo('/alice').length >= 1);
    expect(pushedTo('/alice')[0]).toMatchObject(notice);
    expect((await audit('workspace.member_added')).at(0)).toMatchObject({
      actor: 'eve',
      details: { member: 'alice', role: 'editor' },
    });

    // The spoof, before alice ever opened the workspace: not delivered at all.
    expect((await publish('eve', team.id, SPOOF)).status).toBe(200);
    expect(
      (await call('admin', 'POST', '/public/api/notifications', { message: 'Later', userId: 'alice' })).status,
    ).toBe(200);
    await live.waitForEvents(2);
    await until(() => pushedTo('/alice').length >= 2);
    await new Promise((r) => setTimeout(r, 150));
    expect(received(live).map((n) => n.message)).toEqual([notice.message, 'Later']);
    expect(pushedTo('/alice').map((n) => n.message)).toEqual([notice.message, 'Later']);
    expect((await feed('alice')).map((n) => n.message)).not.toContain(SPOOF);

    // Once she opened it, its messages reach her: typed `workspace`, naming eve and the workspace, never `admin`.
    expect((await call('alice', 'GET', `/api/workspaces/${team.id}`)).status).toBe(200);
    expect((await publish('eve', team.id, `${SPOOF} (2)`)).status).toBe(200);
    const message = {
      type: 'workspace',
      message: `${SPOOF} (2)`,
      workspace: { id: team.id, name: 'Atrium Security Team' },
      sender: { name: 'Eve Example' },
    };
    await live.waitForEvents(3);
    expect(received(live)[2]).toMatchObject(message);
    await until(() => pushedTo('/alice').length >= 3);
    expect(pushedTo('/alice')[2]).toMatchObject(message);
    const inFeed = (await feed('alice')).filter((n) => n.message.startsWith('SPOOF'));
    expect(inFeed.length).toBeGreaterThan(0);
    for (const entry of inFeed) {
      expect(entry.type).toBe('workspace');
      expect(entry).toMatchObject({ workspace: message.workspace, sender: message.sender });
    }

    // One click: she leaves, and nothing of the workspace reaches her again.
    expect((await call('alice', 'DELETE', `/api/workspaces/${team.id}/members/alice`)).status).toBe(200);
    expect((await feed('alice')).map((n) => n.message)).not.toContain(`${SPOOF} (2)`);
    expect((await call('alice', 'GET', `/api/workspaces/${team.id}`)).status).toBe(404);
    expect((await audit('workspace.member_removed')).at(0)).toMatchObject({
      actor: 'alice',
      details: { member: 'alice', left: true },
    });
  });

  it('rate-limits workspace messages per sender: 429 in the JSON shape, parallel sends too', async () => {
    const first = await createWorkspace('bob', 'Bob one');
    const second = await createWorkspace('bob', 'Bob two');
    const statuses: number[] = [];
    for (let i = 0; i < WORKSPACE_MESSAGE_LIMITS.perSender; i++) {
      statuses.push((await publish('bob', i % 2 ? first.id : second.id, `hello ${i}`)).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await publish('bob', first.id, 'one too many');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await readError(refused)).toMatchObject({
      code: 'RATE_LIMITED',
      message: WORKSPACE_MESSAGE_LIMITS.message,
      requestId: expect.any(String),
    });
    // Parallel sends cannot slip past it either: counted before sending.
    const parallel = await Promise.all(Array.from({ length: 5 }, () => publish('bob', second.id, 'burst')));
    expect(parallel.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect((await feed('bob')).map((n) => n.message)).not.toContain('one too many');
  });

  it("rate-limits one workspace's messages whoever sends them", async () => {
    cookies.dan = await server.signInAs({ owner_key: 'dan' });
    cookies.fay = await server.signInAs({ owner_key: 'fay' });
    cookies.gus = await server.signInAs({ owner_key: 'gus' });
    const shared = await createWorkspace('dan', 'Shared');
    for (const who of ['fay', 'gus']) {
      await expectJson(call('dan', 'PUT', `/api/workspaces/${shared.id}/members/${who}`, { role: 'owner' }));
    }
    const { perSender, perWorkspace } = WORKSPACE_MESSAGE_LIMITS;
    const senders = ['dan', 'fay', 'gus'];
    const statuses: number[] = [];
    for (let i = 0; i < perWorkspace; i++) {
      statuses.push((await publish(senders[Math.floor(i / perSender) % 3] ?? 'dan', shared.id, `n${i}`)).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // gus has sent none yet: the workspace's own limit refuses him.
    const refused = await publish('gus', shared.id, 'over the workspace limit');
    expect(refused.status).toBe(429);
    expect((await readError(refused)).code).toBe('RATE_LIMITED');
  });

  it('with "Members must accept workspace invitations": pending until accepted, no access, decline removes', async () => {
    expect(await expectJson(call('admin', 'GET', '/api/admin/settings'))).toEqual({ membersMustAccept: false });
    expect((await call('carol', 'PUT', '/api/admin/settings', { membersMustAccept: true })).status).toBe(403);
    expect((await call('admin', 'PUT', '/api/admin/settings', {})).status).toBe(400);
    await setting(true);
    try {
      const space = await createWorkspace('eve', 'Invite only');
      const file = await expectJson<{ id: string }>(
        sendJson(server, cookies.eve, 'POST', '/api/folders', { name: 'Plans', parentId: space.rootFolderId }),
        201,
      );
      const invited = await expectJson<Member>(
        call('eve', 'PUT', `/api/workspaces/${space.id}/members/carol`, { role: 'viewer' }),
      );
      expect(invited).toMatchObject({ ownerKey: 'carol', role: 'viewer', status: 'invited' });
      const members = await expectJson<Member[]>(call('eve', 'GET', `/api/workspaces/${space.id}/members`));
      expect(members.map((m) => [m.ownerKey, m.status])).toEqual([
        ['eve', 'member'],
        ['carol', 'invited'],
      ]);
      expect((await feed('carol'))[0]).toMatchObject({
        type: 'membership',
        message: 'Eve Example invited you to Invite only (viewer)',
        membership: { role: 'viewer', state: 'invited' },
        workspace: { id: space.id, name: 'Invite only' },
      });

      // Pending: a non-member everywhere.
      for (const path of [
        `/api/workspaces/${space.id}`,
        `/api/workspaces/${space.id}/members`,
        `/api/folders/${space.rootFolderId}`,
        `/api/folders/${file.id}`,
      ]) {
        expect((await readError(await call('carol', 'GET', path))).code, path).toMatch(/NOT_FOUND$/);
      }
      const spaces = await expectJson<{ id: string | null }[]>(call('carol', 'GET', '/api/spaces'));
      expect(spaces.map((s) => s.id)).not.toContain(space.id);
      expect((await publish('eve', space.id, 'for members only')).status).toBe(200);
      expect((await feed('carol')).map((n) => n.message)).not.toContain('for members only');
      expect((await call('carol', 'DELETE', `/api/workspaces/${space.id}/members/carol`)).status).toBe(404);
      // Someone not invited cannot accept; a second accept finds nothing.
      expect((await readError(await call('bob', 'POST', `/api/workspaces/${space.id}/membership/accept`))).code).toBe(
        'WORKSPACE_NOT_FOUND',
      );

      const accepted = await expectJson<Workspace>(
        call('carol', 'POST', `/api/workspaces/${space.id}/membership/accept`),
      );
      expect(accepted).toMatchObject({ id: space.id, role: 'viewer' });
      expect((await call('carol', 'POST', `/api/workspaces/${space.id}/membership/accept`)).status).toBe(404);
      expect((await call('carol', 'GET', `/api/folders/${file.id}`)).status).toBe(200);
      expect((await feed('carol')).map((n) => n.message)).toContain('for members only');

      // Decline: bob is invited, declines, and is neither a member nor invited any more.
      await expectJson(call('eve', 'PUT', `/api/workspaces/${space.id}/members/bob`, { role: 'editor' }));
      expect(await expectJson(call('bob', 'POST', `/api/workspaces/${space.id}/membership/decline`))).toEqual({
        id: space.id,
        declined: true,
      });
      expect((await call('bob', 'POST', `/api/workspaces/${space.id}/membership/decline`)).status).toBe(404);
      const after = await expectJson<Member[]>(call('eve', 'GET', `/api/workspaces/${space.id}/members`));
      expect(after.map((m) => [m.ownerKey, m.status])).toEqual([
        ['eve', 'member'],
        ['carol', 'member'],
      ]);
      expect((await call('bob', 'GET', `/api/workspaces/${space.id}`)).status).toBe(404);

      // An owner withdraws an invitation.
      await expectJson(call('eve', 'PUT', `/api/workspaces/${space.id}/members/bob`, { role: 'viewer' }));
      expect((await call('eve', 'DELETE', `/api/workspaces/${space.id}/members/bob`)).status).toBe(200);
      expect((await call('bob', 'POST', `/api/workspaces/${space.id}/membership/accept`)).status).toBe(404);

      expect((await audit('workspace.member_invited')).map((e) => e.details.member)).toEqual(['bob', 'bob', 'carol']);
      expect((await audit('workspace.member_accepted')).at(0)).toMatchObject({ actor: 'carol' });
      expect((await audit('workspace.member_declined')).at(0)).toMatchObject({ actor: 'bob' });
      expect((await audit('settings.changed')).at(0)).toMatchObject({
        actor: 'admin',
        details: { setting: 'membersMustAccept', from: false, to: true },
      });
    } finally {
      await setting(false);
    }
  });
});
