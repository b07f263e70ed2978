import type {
  EmptyTrashResponse,
  FileRecord,
  Folder,
  FolderListing,
  Link,
  RestoreTrashResponse,
  SharedWithMe,
  SpaceList,
  TrashList,
  UserFileStats,
  Workspace,
  WorkspaceDetails,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The trash (docs/PRODUCT.md#trash-and-versions): deleting moves a file or folder to the trash of its space, where it
 * is out of every list, share and link until it is restored (back in place, or at the root, a clash renamed) or purged
 * (by hand, by emptying, or by the `trash.purge` job after TRASH_RETENTION_DAYS). Policies: a personal trash is its
 * owner's, a workspace's its editors' and owners'.
 */
describe.each(dialects())('trash (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { TRASH_RETENTION_DAYS: '30' } });
    Object.assign(
      cookies,
      await signInPeople(server, ['alice', 'bob', 'vera', 'eddie'], (key) => key[0]?.toUpperCase() + key.slice(1)),
    );
  });
  afterAll(async () => server?.close());

  const { call, json, upload: send } = callsAs(() => server, cookies);
  const upload = async (who: string, query: string, name: string, content: string) =>
    json<FileRecord>(await send(who, query, name, content));
  const trashOf = async (who: string) => json<TrashList>(await call(who, 'GET', '/api/trash'));
  const namesIn = async (who: string, folderId: string) => {
    const listing = await json<FolderListing>(await call(who, 'GET', `/api/folders/${folderId}`));
    return [...listing.folders.map((f) => `${f.name}/`), ...listing.files.map((f) => f.fileName)];
  };
  const personalRoot = async (who: string) => {
    const spaces = await json<SpaceList>(await call(who, 'GET', '/api/spaces'));
    return spaces.find((space) => space.kind === 'personal')?.rootFolderId ?? '';
  };

  it("moves a deleted file to its owner's trash: gone from lists, stats, links and shares until restored", async () => {
    const root = await personalRoot('alice');
    const file = await upload('alice', '', 'budget.txt', 'twelve bytes');
    const link = await json<Link>(await call('alice', 'POST', '/api/links', { fileId: file.id }), 201);
    await json(await call('alice', 'PUT', `/api/files/${file.id}/shares/bob`, { role: 'viewer' }), 201);
    expect(
      (await json<SharedWithMe>(await call('bob', 'GET', '/api/shared-with-me'))).files.map((f) => f.id),
    ).toContain(file.id);

    // The spec's delete: the same answer as before.
    const removed = await call('alice', 'DELETE', `/api/files/user/${file.id}`);
    expect(await json(removed)).toEqual({ id: file.id, deleted: true });

    expect(await namesIn('alice', root)).not.toContain('budget.txt');
    expect(
      (await json<FileRecord[]>(await call('alice', 'GET', '/api/files/user/alice'))).map((f) => f.id),
    ).not.toContain(file.id);
    const stats = await json<UserFileStats>(await call('alice', 'GET', '/api/files/user-stats/alice'));
    expect(stats).toMatchObject({ fileCount: 0, sizeInBytes: 0, trashBytes: 12 });
    expect((await call('alice', 'GET', `/api/files/${file.id}`)).status).toBe(404);
    expect((await call('alice', 'GET', `/api/files/download/${file.id}`)).status).toBe(404);
    expect((await server.fetch(`/api/public/links/${link.token}`)).status).toBe(404);
    expect((await server.fetch(`/api/public/links/${link.token}/download`)).status).toBe(404);
    expect((await call('bob', 'GET', `/api/files/download/${file.id}`)).status).toBe(404);
    expect((await json<SharedWithMe>(await call('bob', 'GET', '/api/shared-with-me'))).files).toEqual([]);
    // Deleting it again: it is not there any more.
    expect((await call('alice', 'DELETE', `/api/files/user/${file.id}`)).status).toBe(404);

    const trash = await trashOf('alice');
    const item = trash.items.find((i) => i.id === file.id);
    expect(item).toMatchObject({
      kind: 'file',
      name: 'budget.txt',
      size: 12,
      contentType: 'text/plain',
      fileCount: 1,
      workspaceId: null,
      trashedBy: { name: 'Alice' },
    });
    expect(Date.parse(item?.purgeAt ?? '') - Date.parse(item?.trashedAt ?? '')).toBe(30 * DAY_MS);
    // Nobody else sees it in their trash, nor can restore or purge it.
    expect((await trashOf('bob')).items.map((i) => i.id)).not.toContain(file.id);
    for (const who of ['bob', 'admin']) {
      for (const [method, url] of [
        ['POST', `/api/trash/${file.id}/restore`],
        ['DELETE', `/api/trash/${file.id}`],
      ] as const) {
        const refused = await call(who, method, url);
        expect(refused.status, `${who} ${method} ${url}`).toBe(404);
        expect(await readError(refused)).toMatchObject({
          code: 'NOT_FOUND',
          message: 'This item is not in the trash.',
        });
      }
    }

    const restored = await json<RestoreTrashResponse>(await call('alice', 'POST', `/api/trash/${file.id}/restore`));
    expect(restored).toEqual({ id: file.id, kind: 'file', name: 'budget.txt', folderId: root, toRoot: false });
    expect(await namesIn('alice', root)).toContain('budget.txt');
    expect((await server.fetch(`/api/public/links/${link.token}/download`)).status).toBe(200);
    expect(await (await call('bob', 'GET', `/api/files/download/${file.id}`)).text()).toBe('twelve bytes');
    expect((await trashOf('alice')).items.map((i) => i.id)).not.toContain(file.id);
    // A restored item is no longer in the trash.
    expect((await call('alice', 'POST', `/api/trash/${file.id}/restore`)).status).toBe(404);
  });

  it('restores under a free name when the old one was taken, and at the root when the folder is in the trash', async () => {
    const root = await personalRoot('alice');
    const folder = await json<Folder>(await call('alice', 'POST', '/api/folders', { name: 'Reports' }), 201);
    const first = await upload('alice', `?folderId=${folder.id}`, 'q1.txt', 'first');
    await json(await call('alice', 'DELETE', `/api/files/user/${first.id}`));
    // The name is free again while the first one is in the trash.
    const second = await upload('alice', `?folderId=${folder.id}`, 'q1.txt', 'second');
    expect(second.fileName).toBe('q1.txt');
    const back = await json<RestoreTrashResponse>(await call('alice', 'POST', `/api/trash/${first.id}/restore`));
    expect(back).toMatchObject({ name: 'q1 (1).txt', folderId: folder.id, toRoot: false });
    expect((await namesIn('alice', folder.id)).sort()).toEqual(['q1 (1).txt', 'q1.txt']);

    // A file deleted on its own, then its folder: the folder restores with what went with it; the file, restored
    // while its folder is in the trash, goes to the root.
    await json(await call('alice', 'DELETE', `/api/files/user/${second.id}`));
    const gone = await json<{ folders: number; files: number }>(
      await call('alice', 'DELETE', `/api/folders/${folder.id}`),
    );
    expect(gone).toMatchObject({ folders: 1, files: 1 });
    expect(await namesIn('alice', root)).not.toContain('Reports/');
    const items = (await trashOf('alice')).items.filter((i) => [folder.id, second.id].includes(i.id));
    // Newest first: the folder (with the one file that went with it), then the file deleted before it.
    expect(items.map((i) => [i.kind, i.name, i.fileCount])).toEqual([
      ['folder', 'Reports', 1],
      ['file', 'q1.txt', 1],
    ]);
    const toRoot = await json<RestoreTrashResponse>(await call('alice', 'POST', `/api/trash/${second.id}/restore`));
    expect(toRoot).toMatchObject({ folderId: root, toRoot: true, name: 'q1.txt' });
    // Someone made a new "Reports" meanwhile: the restored folder becomes "Reports (1)" with its content.
    await json(await call('alice', 'POST', '/api/folders', { name: 'Reports' }), 201);
    const folderBack = await json<RestoreTrashResponse>(await call('alice', 'POST', `/api/trash/${folder.id}/restore`));
    expect(folderBack).toMatchObject({ kind: 'folder', name: 'Reports (1)', folderId: root, toRoot: false });
    expect(await namesIn('alice', folder.id)).toEqual(['q1 (1).txt']);
  });

  it('purges one item, a folder with its content, and keeps what was trashed on its own from inside it', async () => {
    const folder = await json<Folder>(await call('alice', 'POST', '/api/folders', { name: 'Old' }), 201);
    const sub = await json<Folder>(
      await call('alice', 'POST', '/api/folders', { name: 'Sub', parentId: folder.id }),
      201,
    );
    const kept = await upload('alice', `?folderId=${sub.id}`, 'keep.txt', 'keep me');
    const goes = await upload('alice', `?folderId=${sub.id}`, 'goes.txt', 'goes');
    await json(await call('alice', 'DELETE', `/api/files/user/${kept.id}`));
    await json(await call('alice', 'DELETE', `/api/folders/${folder.id}`));
    // A sub folder of a trashed folder is not an item of its own.
    expect((await call('alice', 'DELETE', `/api/trash/${sub.id}`)).status).toBe(404);
    expect(await json(await call('alice', 'DELETE', `/api/trash/${folder.id}`))).toEqual({
      id: folder.id,
      purged: true,
    });
    const { db } = server.app.database;
    expect(await db.selectFrom('files').select('id').where('id', '=', goes.id).execute()).toEqual([]);
    expect(await db.selectFrom('folders').select('id').where('id', 'in', [folder.id, sub.id]).execute()).toEqual([]);
    expect((await trashOf('alice')).items.map((i) => i.id)).toContain(kept.id);
    const back = await json<RestoreTrashResponse>(await call('alice', 'POST', `/api/trash/${kept.id}/restore`));
    // Its folder is gone: it went to the root of the space when the folder was purged, and comes back there.
    expect(back).toMatchObject({ folderId: await personalRoot('alice'), name: 'keep.txt' });
    expect(await (await call('alice', 'GET', `/api/files/download/${kept.id}`)).text()).toBe('keep me');
  });

  it("shows a workspace's trash to its editors and owners only; viewers cannot delete, restore or purge", async () => {
    const ws = await json<Workspace>(await call('alice', 'POST', '/api/workspaces', { name: 'Team' }), 201);
    for (const [who, role] of [
      ['eddie', 'editor'],
      ['vera', 'viewer'],
    ] as const)
      await json(await call('alice', 'PUT', `/api/workspaces/${ws.id}/members/${who}`, { role }));
    const file = await upload('eddie', `?workspaceId=${ws.id}`, 'plan.txt', 'the plan');
    const viewerDelete = await call('vera', 'DELETE', `/api/files/user/${file.id}`);
    expect(viewerDelete.status).toBe(403);
    await json(await call('eddie', 'DELETE', `/api/files/user/${file.id}`));
    for (const who of ['alice', 'eddie']) {
      expect((await trashOf(who)).items.find((i) => i.id === file.id)).toMatchObject({
        workspaceId: ws.id,
        workspaceName: 'Team',
        trashedBy: { name: 'Eddie' },
      });
    }
    for (const who of ['vera', 'bob', 'admin']) {
      expect((await trashOf(who)).items.map((i) => i.id)).not.toContain(file.id);
      expect((await call(who, 'POST', `/api/trash/${file.id}/restore`)).status).toBe(404);
      expect((await call(who, 'DELETE', `/api/trash/${file.id}`)).status).toBe(404);
    }
    expect((await call('vera', 'DELETE', `/api/trash?workspaceId=${ws.id}`)).status).toBe(403);
    expect((await call('bob', 'DELETE', `/api/trash?workspaceId=${ws.id}`)).status).toBe(404);
    // The workspace's usage counts the trash.
    expect((await json<WorkspaceDetails>(await call('alice', 'GET', `/api/workspaces/${ws.id}`))).usedBytes).toBe(8);
    await json(await call('eddie', 'POST', `/api/trash/${file.id}/restore`));
    await json(await call('eddie', 'DELETE', `/api/files/user/${file.id}`));
    // Emptying one's own trash leaves the workspace's alone; emptying the workspace's removes it.
    await json(await call('eddie', 'DELETE', '/api/trash'));
    expect((await trashOf('alice')).items.map((i) => i.id)).toContain(file.id);
    expect(await json<EmptyTrashResponse>(await call('eddie', 'DELETE', `/api/trash?workspaceId=${ws.id}`))).toEqual({
      purged: 1,
    });
    expect((await trashOf('alice')).items.map((i) => i.id)).not.toContain(file.id);
    expect((await json<WorkspaceDetails>(await call('alice', 'GET', `/api/workspaces/${ws.id}`))).usedBytes).toBe(0);
  });

  it('empties a personal trash, and the trash.purge job removes what is older than TRASH_RETENTION_DAYS', async () => {
    const old = await upload('bob', '', 'old.txt', 'old');
    const recent = await upload('bob', '', 'recent.txt', 'recent');
    for (const file of [old, recent]) await json(await call('bob', 'DELETE', `/api/files/user/${file.id}`));
    const { db } = server.app.database;
    await db
      .updateTable('files')
      .set({ trashed_at: new Date(Date.now() - 31 * DAY_MS).toISOString() })
      .where('id', '=', old.id)
      .execute();
    await server.app.scheduler.runNow('trash.purge');
    const left = (await trashOf('bob')).items.map((i) => i.id);
    expect(left).toContain(recent.id);
    expect(left).not.toContain(old.id);
    expect(await db.selectFrom('files').select('id').where('id', '=', old.id).execute()).toEqual([]);
    expect(await json<EmptyTrashResponse>(await call('bob', 'DELETE', '/api/trash'))).toEqual({ purged: 1 });
    expect((await trashOf('bob')).items).toEqual([]);
    expect((await json<UserFileStats>(await call('bob', 'GET', '/api/files/user-stats/bob'))).trashBytes).toBe(0);
  });

  it('an empty id is no route: DELETE /api/trash/ answers 404 and empties nothing', async () => {
    const file = await upload('alice', '', 'kept-in-trash.txt', 'kept');
    await json(await call('alice', 'DELETE', `/api/files/user/${file.id}`));
    const before = (await trashOf('alice')).items.map((item) => item.id);
    expect(before).toContain(file.id);
    for (const [method, path] of [
      ['DELETE', '/api/trash/'],
      ['DELETE', '/api/trash/?workspaceId='],
      ['POST', '/api/trash//restore'],
    ] as const) {
      const refused = await call('alice', method, path);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect((await readError(refused)).code).toBe('ROUTE_NOT_FOUND');
    }
    expect((await trashOf('alice')).items.map((item) => item.id)).toEqual(before);
  });
});
