import type {
  ActivityPage,
  FileRecord,
  Folder,
  HomeSummary,
  RecentPage,
  StarredList,
  Workspace,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Activity (docs/PRODUCT.md#activity), the home (#dashboard-home), Starred and Recent (#starred-and-recent): what each person
 * sees is what they may read — a non-member gets 404, a viewer sees the workspace's changes but not its shares, a
 * share recipient sees only the shared folder's subtree.
 */
describe.each(dialects())('activity, home, starred and recent (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    for (const [key, name] of [
      ['alice', 'Alice Owner'],
      ['bob', 'Bob Editor'],
      ['vera', 'Vera Viewer'],
      ['sam', 'Sam Shared'],
      ['olga', 'Olga Outsider'],
    ] as const) {
      cookies[key] = await server.signInAs({ owner_key: key, name });
    }
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const feed = async (who: string, path: string) => json<ActivityPage>(await call(who, 'GET', path));

  let ws: Workspace;
  let clients: Folder;
  let inner: Folder;
  let brief: FileRecord;
  let plan: FileRecord;

  it('feeds a workspace’s activity to its members, by name, paged and filtered', async () => {
    ws = await json<Workspace>(await call('alice', 'POST', '/api/workspaces', { name: 'Design' }), 201);
    await json(await call('alice', 'PUT', `/api/workspaces/${ws.id}/members/bob`, { role: 'editor' }));
    await json(await call('alice', 'PUT', `/api/workspaces/${ws.id}/members/vera`, { role: 'viewer' }));
    clients = await json<Folder>(
      await call('alice', 'POST', '/api/folders', { name: 'Clients', parentId: ws.rootFolderId }),
      201,
    );
    inner = await json<Folder>(await call('bob', 'POST', '/api/folders', { name: 'Acme', parentId: clients.id }), 201);
    brief = await json<FileRecord>(await upload('bob', `?folderId=${inner.id}`, 'brief.txt', 'the brief'));
    plan = await json<FileRecord>(await upload('alice', `?folderId=${ws.rootFolderId}`, 'plan.txt', 'the plan'));
    await json(await call('bob', 'PATCH', `/api/files/${brief.id}`, { fileName: 'brief-v2.txt' }));
    await json(await call('alice', 'PUT', `/api/folders/${clients.id}/shares/sam`, { role: 'viewer' }), 201);

    const all = await feed('vera', `/api/workspaces/${ws.id}/activity`);
    expect(all.entries.map((entry) => [entry.type, entry.actor?.name, entry.item.name])).toEqual([
      ['renamed', 'Bob Editor', 'brief-v2.txt'],
      ['uploaded', 'Alice Owner', 'plan.txt'],
      ['uploaded', 'Bob Editor', 'brief-v2.txt'],
    ]);
    expect(all.nextCursor).toBeNull();
    expect(all.people.map((person) => person.name)).toEqual(['Alice Owner', 'Bob Editor']);

    // The owner (may share) sees the share too; a filter by person and by type narrows the feed.
    const owners = await feed('alice', `/api/workspaces/${ws.id}/activity`);
    expect(owners.entries[0]).toMatchObject({ type: 'shared', action: 'share.created', item: { name: 'Clients' } });
    const bobId = all.people.find((person) => person.name === 'Bob Editor')?.id ?? '';
    const byBob = await feed('alice', `/api/workspaces/${ws.id}/activity?actor=${bobId}`);
    expect(byBob.entries.map((entry) => entry.action)).toEqual(['file.renamed', 'file.uploaded']);
    const uploads = await feed('alice', `/api/workspaces/${ws.id}/activity?type=uploaded`);
    expect(uploads.entries.map((entry) => entry.item.name)).toEqual(['plan.txt', 'brief-v2.txt']);

    // Paged with a cursor: every entry once, newest first.
    const first = await feed('alice', `/api/workspaces/${ws.id}/activity?limit=2`);
    expect(first.entries).toHaveLength(2);
    const second = await feed('alice', `/api/workspaces/${ws.id}/activity?limit=2&cursor=${first.nextCursor}`);
    expect([...first.entries, ...second.entries].map((entry) => entry.id)).toEqual(
      owners.entries.map((entry) => entry.id),
    );
    expect(second.nextCursor).toBeNull();
  });

  it('hides a workspace’s and a folder’s activity from people outside (404) and refuses a bad cursor (400)', async () => {
    expect((await call('olga', 'GET', `/api/workspaces/${ws.id}/activity`)).status).toBe(404);
    expect((await call('olga', 'GET', `/api/folders/${clients.id}/activity`)).status).toBe(404);
    expect((await call('sam', 'GET', `/api/workspaces/${ws.id}/activity`)).status).toBe(404);
    expect((await call('sam', 'GET', `/api/folders/${ws.rootFolderId}/activity`)).status).toBe(404);
    const bad = await call('alice', 'GET', `/api/workspaces/${ws.id}/activity?cursor=nope`);
    expect(bad.status).toBe(400);
    expect((await readError(bad)).code).toBe('BAD_REQUEST');
  });

  it('shows a folder’s subtree only: a share recipient sees what happened inside the shared folder', async () => {
    const shared = await feed('sam', `/api/folders/${clients.id}/activity`);
    expect(shared.entries.map((entry) => [entry.action, entry.item.name])).toEqual([
      ['file.renamed', 'brief-v2.txt'],
      ['file.uploaded', 'brief-v2.txt'],
    ]);
    const owners = await feed('alice', `/api/folders/${clients.id}/activity`);
    expect(owners.entries.map((entry) => entry.action)).toEqual(['share.created', 'file.renamed', 'file.uploaded']);
  });

  it('counts what a person reaches on the home, lists recent files and shared-with-me lately', async () => {
    const bobHome = await json<HomeSummary>(await call('bob', 'GET', '/api/home'));
    expect(bobHome.counts).toMatchObject({ files: 2, workspaces: 1, sharedWithMe: 0 });
    expect(bobHome.recent.map((item) => item.name)).toEqual(['plan.txt', 'brief-v2.txt']);
    expect(bobHome.recent[0]?.place).toMatchObject({ spaceKind: 'workspace', spaceName: 'Design' });
    expect(bobHome.workspaces).toEqual([
      expect.objectContaining({ name: 'Design', role: 'editor', files: 2, usedBytes: 17 }),
    ]);

    const samHome = await json<HomeSummary>(await call('sam', 'GET', '/api/home'));
    expect(samHome.counts).toMatchObject({ files: 1, workspaces: 0, sharedWithMe: 1 });
    expect(samHome.sharedLately).toEqual([
      expect.objectContaining({ kind: 'folder', name: 'Clients', sharedBy: 'Alice Owner', role: 'viewer' }),
    ]);
    expect(samHome.recent.map((item) => [item.name, item.place.spaceKind, item.place.folderId])).toEqual([
      ['brief-v2.txt', 'shared', inner.id],
    ]);

    const olga = await json<HomeSummary>(await call('olga', 'GET', '/api/home'));
    expect(olga.counts).toMatchObject({ files: 0, workspaces: 0, sharedWithMe: 0 });
    const recent = await json<RecentPage>(await call('vera', 'GET', '/api/recent?limit=1'));
    expect(recent.items.map((item) => item.name)).toEqual(['plan.txt']);
    const rest = await json<RecentPage>(await call('vera', 'GET', `/api/recent?limit=1&cursor=${recent.nextCursor}`));
    expect(rest.items.map((item) => item.name)).toEqual(['brief-v2.txt']);
  });

  it('stars what a person can read, hides trashed items, and drops a star when its item is purged', async () => {
    expect(await json(await call('sam', 'PUT', `/api/stars/file/${brief.id}`))).toEqual({
      kind: 'file',
      id: brief.id,
      starred: true,
    });
    await json(await call('sam', 'PUT', `/api/stars/file/${brief.id}`));
    await json(await call('sam', 'PUT', `/api/stars/folder/${clients.id}`));
    expect((await call('sam', 'PUT', `/api/stars/file/${plan.id}`)).status).toBe(404);
    expect((await call('olga', 'PUT', `/api/stars/folder/${clients.id}`)).status).toBe(404);

    const starred = await json<StarredList>(await call('sam', 'GET', '/api/starred'));
    expect(starred.items.map((item) => [item.kind, item.name, item.starred])).toEqual([
      ['folder', 'Clients', true],
      ['file', 'brief-v2.txt', true],
    ]);
    const recent = await json<RecentPage>(await call('sam', 'GET', '/api/recent'));
    expect(recent.items[0]).toMatchObject({ name: 'brief-v2.txt', starred: true });

    await json(await call('sam', 'DELETE', `/api/stars/folder/${clients.id}`));
    expect((await json<StarredList>(await call('sam', 'GET', '/api/starred'))).items.map((item) => item.name)).toEqual([
      'brief-v2.txt',
    ]);

    // Trashed: hidden from Starred (and the feed says who deleted it); purged: the star is gone with it.
    await json(await call('bob', 'DELETE', `/api/files/user/${brief.id}`));
    expect((await json<StarredList>(await call('sam', 'GET', '/api/starred'))).items).toEqual([]);
    const deleted = await feed('vera', `/api/workspaces/${ws.id}/activity?type=deleted`);
    expect(deleted.entries.map((entry) => [entry.actor?.name, entry.item.name, entry.item.trashed])).toEqual([
      ['Bob Editor', 'brief-v2.txt', true],
    ]);
    await json(await call('alice', 'DELETE', `/api/trash/${brief.id}`));
    const left = await server.app.database.db
      .selectFrom('stars')
      .select('id')
      .where('file_id', '=', brief.id)
      .execute();
    expect(left).toEqual([]);
  });
});
