import type { Folder, Link, NotificationInbox, Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  dialects,
  readError,
  readJson,
  sendJson,
  signInPeople,
  startTestServer,
  uploadFile,
  type TestServer,
} from '../../../test/helpers';

/**
 * The server's list is the truth (docs/PRODUCT.md#notifications): what was sent while someone was away is in their
 * list with its read state on every device; reading and clearing are per person; the team's notices (added, role
 * changed, shared with you, file-drop arrivals) say who did what and name what they open.
 */
describe.each(dialects())('notification inbox and read state (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect, overrides: { dropNoticeWindowMs: 300 } });
    Object.assign(
      cookies,
      await signInPeople(server, ['alice', 'carol', 'bob'], (key) => key[0]?.toUpperCase() + key.slice(1)),
    );
  });
  afterAll(async () => server?.close());

  const call = (who: string, method: string, path: string, body?: unknown) =>
    sendJson(server, cookies[who], method, path, body);
  const inbox = async (who: string, query = '') => {
    const response = await call(who, 'GET', `/public/api/notifications/inbox${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return readJson<NotificationInbox>(response);
  };
  const publish = (body: Record<string, unknown>) =>
    call('admin', 'POST', '/public/api/notifications', { timestamp: new Date().toISOString(), type: 'admin', ...body });

  it('lists what was sent while away, unread, with read state and Clear all kept per person on the server', async () => {
    const toCarol = await readJson<{ id: string }>(
      await publish({ message: 'Carol, your quota grew', userId: 'carol' }),
    );
    await publish({ message: 'Maintenance tonight' });

    // A device that never had a stream open: the server's list has both, unread.
    const first = await inbox('carol');
    expect(first.items.map((n) => [n.message, n.read])).toEqual([
      ['Maintenance tonight', false],
      ['Carol, your quota grew', false],
    ]);
    expect(first.unread).toBe(2);

    // Bob never sees Carol's, and may not mark it read: 404 as for one that does not exist.
    expect((await inbox('bob')).items.map((n) => n.message)).toEqual(['Maintenance tonight']);
    const foreign = await call('bob', 'POST', `/public/api/notifications/${toCarol.id}/read`);
    expect(foreign.status).toBe(404);
    expect((await readError(foreign)).code).toBe('NOT_FOUND');
    expect((await call('bob', 'POST', '/public/api/notifications/12x/read')).status).toBe(400);
    expect((await call('bob', 'POST', '/public/api/notifications/999999/read')).status).toBe(404);
    expect((await call(undefined as never, 'GET', '/public/api/notifications/inbox')).status).toBe(401);

    // One read: the count follows, and another request (another device) sees it read.
    expect(await readJson(await call('carol', 'POST', `/public/api/notifications/${toCarol.id}/read`))).toEqual({
      unread: 1,
    });
    expect(await readJson(await call('carol', 'POST', `/public/api/notifications/${toCarol.id}/read`))).toEqual({
      unread: 1,
    });
    expect((await inbox('carol')).items.map((n) => n.read)).toEqual([false, true]);

    // Mark all as read: Carol's only; Bob's stays unread.
    expect(await readJson(await call('carol', 'POST', '/public/api/notifications/read-all'))).toEqual({ unread: 0 });
    expect((await inbox('carol')).items.every((n) => n.read)).toBe(true);
    expect((await inbox('bob')).unread).toBe(1);

    // Something new after that is unread again.
    await publish({ message: 'New policy' });
    expect((await inbox('carol')).items.map((n) => [n.message, n.read])[0]).toEqual(['New policy', false]);

    // Clear all hides everything so far for Carol only; what comes later shows.
    expect(await readJson(await call('carol', 'POST', '/public/api/notifications/clear'))).toEqual({ unread: 0 });
    expect(await inbox('carol')).toEqual({ items: [], unread: 0, nextCursor: null });
    expect((await inbox('bob')).items.map((n) => n.message)).toEqual(['New policy', 'Maintenance tonight']);
    expect((await call('carol', 'POST', `/public/api/notifications/${toCarol.id}/read`)).status).toBe(404);
    await publish({ message: 'After the clear' });
    expect(await inbox('carol')).toEqual(
      expect.objectContaining({
        items: [expect.objectContaining({ message: 'After the clear', read: false })],
        unread: 1,
      }),
    );
  });

  it('pages with a cursor, newest first, counting unread over every page', async () => {
    for (const n of [1, 2, 3]) await publish({ message: `Page ${n}`, userId: 'bob' });
    const one = await inbox('bob', '?limit=2');
    expect(one.items.map((n) => n.message)).toEqual(['Page 3', 'Page 2']);
    expect(one.unread).toBe((await inbox('bob', '?limit=100')).items.filter((n) => !n.read).length);
    expect(one.nextCursor).not.toBeNull();
    const two = await inbox('bob', `?limit=2&cursor=${one.nextCursor ?? ''}`);
    expect(two.items.map((n) => n.message)[0]).toBe('Page 1');
    expect((await call('bob', 'GET', '/public/api/notifications/inbox?cursor=abc')).status).toBe(400);
    expect((await call('bob', 'GET', '/public/api/notifications/inbox?limit=0')).status).toBe(400);
  });

  it('tells people they were added (with the role), that their role changed, and what was shared, naming what opens', async () => {
    const design = await readJson<Workspace>(await call('alice', 'POST', '/api/workspaces', { name: 'Design' }));
    expect((await call('alice', 'PUT', `/api/workspaces/${design.id}/members/carol`, { role: 'editor' })).status).toBe(
      200,
    );
    expect((await call('alice', 'PUT', `/api/workspaces/${design.id}/members/carol`, { role: 'owner' })).status).toBe(
      200,
    );
    const file = await readJson<{ id: string }>(await uploadFile(server, cookies.alice, '', 'brief.txt', 'hello'));
    expect((await call('alice', 'PUT', `/api/files/${file.id}/shares/carol`, { role: 'viewer' })).status).toBe(201);

    const items = (await inbox('carol')).items.slice(0, 3);
    expect(items.map((n) => n.message)).toEqual([
      'Alice shared brief.txt with you',
      'Alice made you an owner of Design',
      'Alice added you to Design (editor)',
    ]);
    expect(items.map((n) => n.subject)).toEqual([
      { kind: 'file', id: file.id, workspaceId: null },
      { kind: 'workspace', id: design.id, workspaceId: design.id },
      { kind: 'workspace', id: design.id, workspaceId: design.id },
    ]);
    expect(items[1]).toEqual(
      expect.objectContaining({ type: 'membership', membership: { role: 'owner', state: 'changed' } }),
    );
  });

  it("gathers parallel arrivals through a file-drop link into one notice to the link's maker, opening the folder", async () => {
    const clients = await readJson<Folder>(await call('alice', 'POST', '/api/folders', { name: 'Clients' }));
    const link = await readJson<Link>(
      await call('alice', 'POST', '/api/links', { folderId: clients.id, allowUpload: true }),
    );
    const drop = (name: string) => {
      const form = new FormData();
      form.append('file', new Blob([name]), name);
      return server.fetch(`/api/public/links/${link.token}/upload`, { method: 'POST', body: form });
    };
    const answers = await Promise.all(['a.txt', 'b.txt', 'c.txt'].map(drop));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);

    await vi.waitFor(
      async () => {
        const notices = (await inbox('alice')).items.filter((n) => n.message.includes('file-drop'));
        expect(notices.map((n) => [n.message, n.subject])).toEqual([
          [
            '3 files arrived in Clients through your file-drop link',
            { kind: 'folder', id: clients.id, workspaceId: null },
          ],
        ]);
      },
      { timeout: 5000, interval: 100 },
    );
    // Nobody else hears of it.
    expect((await inbox('carol')).items.some((n) => n.message.includes('file-drop'))).toBe(false);
  });
});
