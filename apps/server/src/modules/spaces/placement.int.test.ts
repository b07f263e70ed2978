import { randomUUID } from 'node:crypto';
import type {
  FileDetails,
  FileRecord,
  Folder,
  FolderListing,
  Space,
  UserFileStats,
  Workspace,
  WorkspaceDetails,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';

const WORKSPACE_QUOTA = 4096;

/**
 * Files in folders and workspaces (docs/PRODUCT.md#workspaces-and-folders): where uploads go, who reaches a file
 * through a workspace membership or a share, renaming and moving files, and each space's quota.
 */
describe.each(dialects())('files in folders and workspaces (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { WORKSPACE_QUOTA_BYTES: String(WORKSPACE_QUOTA) } });
    for (const key of ['olivia', 'edgar', 'vera', 'nora', 'sam']) {
      cookies[key] = await server.signInAs({
        owner_key: key,
        name: key,
        oidc_issuer: 'https://idp.example.test',
        oidc_subject: `sub-${key}`,
      });
      const row = await server.app.database.db
        .selectFrom('users')
        .select('id')
        .where('owner_key', '=', key)
        .executeTakeFirstOrThrow();
      ids[key] = row.id;
    }
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const failure = async (response: Response) => `${response.status} ${(await readError(response)).message}`;
  const names = (listing: FolderListing) => [
    ...listing.folders.map((f) => `${f.name}/`),
    ...listing.files.map((f) => f.fileName),
  ];

  /** A workspace of olivia (owner) with edgar as editor and vera as viewer; nora and sam are not members. */
  async function team(name: string): Promise<Workspace> {
    const workspace = await json<Workspace>(await call('olivia', 'POST', '/api/workspaces', { name }), 201);
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/edgar`, { role: 'editor' }));
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/vera`, { role: 'viewer' }));
    return workspace;
  }

  it('stores uploads in the workspace root or a folder, and lets each member do what their role allows', async () => {
    const ws = await team('Uploads');
    const plan = await json<FileRecord>(await upload('edgar', `?workspaceId=${ws.id}`, 'plan.txt', 'the plan'));
    const drafts = await json<Folder>(
      await call('olivia', 'POST', '/api/folders', { name: 'Drafts', workspaceId: ws.id }),
      201,
    );
    const draft = await json<FileRecord>(await upload('olivia', `?folderId=${drafts.id}`, 'draft.txt', 'draft one'));

    expect(names(await json<FolderListing>(await call('vera', 'GET', `/api/folders/${ws.rootFolderId}`)))).toEqual([
      'Drafts/',
      'plan.txt',
    ]);
    expect(names(await json<FolderListing>(await call('vera', 'GET', `/api/folders/${drafts.id}`)))).toEqual([
      'draft.txt',
    ]);

    // Every member reads and downloads; the viewer changes nothing; outsiders and admins see nothing at all.
    for (const who of ['olivia', 'edgar', 'vera']) {
      const download = await call(who, 'GET', `/api/files/download/${plan.id}`);
      expect([who, download.status, await download.text()]).toEqual([who, 200, 'the plan']);
      expect((await call(who, 'GET', `/api/files/${draft.id}`)).status).toBe(200);
    }
    for (const who of ['nora', 'admin']) {
      expect([who, await failure(await call(who, 'GET', `/api/files/download/${plan.id}`))]).toEqual([
        who,
        '404 File not found',
      ]);
      expect((await call(who, 'DELETE', `/api/files/user/${plan.id}`)).status).toBe(404);
      expect((await call(who, 'PATCH', `/api/files/${plan.id}`, { fileName: 'x.txt' })).status).toBe(404);
      expect((await upload(who, `?workspaceId=${ws.id}`, 'in.txt', 'x')).status).toBe(404);
      expect((await upload(who, `?folderId=${drafts.id}`, 'in.txt', 'x')).status).toBe(404);
    }
    expect(await failure(await call('vera', 'DELETE', `/api/files/user/${plan.id}`))).toBe(
      '403 You can only view this file.',
    );
    expect((await call('vera', 'PATCH', `/api/files/${plan.id}`, { fileName: 'mine.txt' })).status).toBe(403);
    expect((await upload('vera', `?workspaceId=${ws.id}`, 'in.txt', 'x')).status).toBe(403);
    expect((await upload('vera', `?folderId=${drafts.id}`, 'in.txt', 'x')).status).toBe(403);
    // A folder of one workspace named with another workspace, or with a user, is a clear 400.
    const other = await team('Other');
    expect(await failure(await upload('olivia', `?workspaceId=${other.id}&folderId=${drafts.id}`, 'a.txt', 'a'))).toBe(
      '400 That folder is not in this workspace.',
    );
    expect((await upload('olivia', `?userId=olivia&folderId=${drafts.id}`, 'a.txt', 'a')).status).toBe(400);

    // Workspace files are the workspace's: not in the uploader's own list or stats, counted in the workspace.
    const own = await json<FileRecord[]>(await call('edgar', 'GET', '/api/files/user/edgar'));
    expect(own.map((f) => f.fileName)).not.toContain('plan.txt');
    const details = await json<WorkspaceDetails>(await call('vera', 'GET', `/api/workspaces/${ws.id}`));
    expect(details.usedBytes).toBe('the plan'.length + 'draft one'.length);

    // Leaving the workspace ends the access at once.
    await json(await call('vera', 'DELETE', `/api/workspaces/${ws.id}/members/vera`));
    expect((await call('vera', 'GET', `/api/files/download/${plan.id}`)).status).toBe(404);
  });

  it('puts personal uploads into the personal root or one of its folders, names clashing per folder', async () => {
    const spaces = await json<Space[]>(await call('sam', 'GET', '/api/spaces'));
    const root = spaces[0]?.rootFolderId ?? '';
    const photos = await json<Folder>(await call('sam', 'POST', '/api/folders', { name: 'Photos' }), 201);
    const first = await json<FileRecord>(await upload('sam', '', 'notes.txt', 'one'));
    const again = await json<FileRecord>(await upload('sam', '?userId=sam', 'Notes.txt', 'two'));
    const inFolder = await json<FileRecord>(await upload('sam', `?folderId=${photos.id}`, 'notes.txt', 'three'));
    expect([first.fileName, again.fileName, inFolder.fileName]).toEqual(['notes.txt', 'Notes (1).txt', 'notes.txt']);
    expect(names(await json<FolderListing>(await call('sam', 'GET', `/api/folders/${root}`)))).toEqual([
      'Photos/',
      'Notes (1).txt',
      'notes.txt',
    ]);
    // The spec's list and stats still cover the whole personal space.
    const stats = await json<UserFileStats>(await call('sam', 'GET', '/api/files/user-stats/sam'));
    expect(stats.fileCount).toBe(3);
    // Someone else's personal folder: 404, as if it did not exist; another user's space by userId: the spec's 403.
    expect(await failure(await upload('nora', `?folderId=${photos.id}`, 'x.txt', 'x'))).toBe('404 Folder not found.');
    expect((await upload('nora', '?userId=sam', 'x.txt', 'x')).status).toBe(403);
    // Admins too: the spec's admin uploads under its own owner key, not into anyone else's space.
    expect(await failure(await upload('admin', '?userId=sam', 'from-admin.txt', 'hi'))).toBe(
      '403 You can only access your own files.',
    );
    expect((await upload('admin', '?userId=admin', 'from-admin.txt', 'hi')).status).toBe(200);
    expect(names(await json<FolderListing>(await call('sam', 'GET', `/api/folders/${root}`)))).not.toContain(
      'from-admin.txt',
    );
  });

  it('renames and moves files, within a space and across spaces, with clear refusals', async () => {
    const ws = await team('Moves');
    const a = await json<FileRecord>(await upload('edgar', '', 'report.txt', 'report'));
    await json<FileRecord>(await upload('edgar', '', 'taken.txt', 'taken'));
    const folder = await json<Folder>(await call('edgar', 'POST', '/api/folders', { name: 'Reports' }), 201);

    // Rename: a taken name becomes "name (1)"; a bad name is refused and changes nothing.
    expect(
      (await json<FileRecord>(await call('edgar', 'PATCH', `/api/files/${a.id}`, { fileName: 'TAKEN.txt' }))).fileName,
    ).toBe('TAKEN (1).txt');
    for (const bad of ['', '  ', 'a/b.txt', '..', 'x'.repeat(256)]) {
      expect((await call('edgar', 'PATCH', `/api/files/${a.id}`, { fileName: bad })).status).toBe(400);
    }
    expect(await failure(await call('edgar', 'PATCH', `/api/files/${a.id}`, {}))).toMatch(/^400 /);
    expect((await json<FileRecord>(await call('edgar', 'GET', `/api/files/${a.id}`))).fileName).toBe('TAKEN (1).txt');

    // Move into a folder of the same space, renaming at once.
    await json(await call('edgar', 'PATCH', `/api/files/${a.id}`, { folderId: folder.id, fileName: 'q1.txt' }));
    expect(names(await json<FolderListing>(await call('edgar', 'GET', `/api/folders/${folder.id}`)))).toEqual([
      'q1.txt',
    ]);

    // Move into the workspace: the bytes leave Edgar's quota and count in the workspace's.
    const before = await json<UserFileStats>(await call('edgar', 'GET', '/api/files/user-stats/edgar'));
    await json(await call('edgar', 'PATCH', `/api/files/${a.id}`, { folderId: ws.rootFolderId }));
    const after = await json<UserFileStats>(await call('edgar', 'GET', '/api/files/user-stats/edgar'));
    expect(before.sizeInBytes - after.sizeInBytes).toBe('report'.length);
    expect((await json<WorkspaceDetails>(await call('olivia', 'GET', `/api/workspaces/${ws.id}`))).usedBytes).toBe(
      'report'.length,
    );
    // Now the workspace's members reach it; Edgar's personal list no longer shows it.
    expect((await call('vera', 'GET', `/api/files/download/${a.id}`)).status).toBe(200);

    // A viewer cannot move it, nobody can move it into a folder they cannot write, an unknown folder is a 404.
    expect((await call('vera', 'PATCH', `/api/files/${a.id}`, { folderId: ws.rootFolderId })).status).toBe(403);
    const veraRoot = (await json<Space[]>(await call('vera', 'GET', '/api/spaces')))[0]?.rootFolderId ?? '';
    expect((await call('vera', 'PATCH', `/api/files/${a.id}`, { folderId: veraRoot })).status).toBe(403);
    expect((await call('edgar', 'PATCH', `/api/files/${a.id}`, { folderId: veraRoot })).status).toBe(404);
    expect(await failure(await call('edgar', 'PATCH', `/api/files/${a.id}`, { folderId: randomUUID() }))).toBe(
      '404 Folder not found.',
    );
  });

  it("moves a file out of its space only with that space's manage right: editors move within it", async () => {
    const outOnly =
      '403 Only the owner of this space can move the file out of it. You can move it to another folder of the same space.';
    const rootOf = async (who: string) =>
      (await json<Space[]>(await call(who, 'GET', '/api/spaces')))[0]?.rootFolderId ?? '';
    /** The folder holding the file, as `who` sees it in the file's details. */
    const where = async (who: string, id: string) =>
      (await json<FileDetails>(await call(who, 'GET', `/api/files/${id}/details`))).location.folderId;
    const usedBy = async (who: string) =>
      (await json<UserFileStats>(await call(who, 'GET', `/api/files/user-stats/${who}`))).sizeInBytes;
    const trashOf = async (who: string) =>
      (await json<{ items: unknown[] }>(await call(who, 'GET', '/api/trash'))).items;
    const [samRoot, edgarRoot, oliviaRoot] = [await rootOf('sam'), await rootOf('edgar'), await rootOf('olivia')];

    // A person-share editor (on a folder, and on the file alone) cannot take Olivia's file into their own space.
    const lent = await json<Folder>(await call('olivia', 'POST', '/api/folders', { name: 'Lent out' }), 201);
    const file = await json<FileRecord>(await upload('olivia', `?folderId=${lent.id}`, 'plan.txt', 'the plan'));
    const alone = await json<FileRecord>(await upload('olivia', '', 'alone.txt', 'alone'));
    await json(await call('olivia', 'PUT', `/api/folders/${lent.id}/shares/sam`, { role: 'editor' }), 201);
    await json(await call('olivia', 'PUT', `/api/files/${alone.id}/shares/sam`, { role: 'editor' }), 201);
    const samUsed = await usedBy('sam');
    const ws = await team('Move out');
    for (const id of [file.id, alone.id]) {
      expect(await failure(await call('sam', 'PATCH', `/api/files/${id}`, { folderId: samRoot }))).toBe(outOnly);
    }
    // Nor into a workspace of theirs (another space all the same).
    await json(await call('olivia', 'PUT', `/api/workspaces/${ws.id}/members/sam`, { role: 'owner' }));
    expect(await failure(await call('sam', 'PATCH', `/api/files/${file.id}`, { folderId: ws.rootFolderId }))).toBe(
      outOnly,
    );
    // Nothing changed: Olivia still has both where they were, nothing in her trash, nothing counts against Sam.
    expect(await where('olivia', file.id)).toBe(lent.id);
    expect(await where('olivia', alone.id)).toBe(oliviaRoot);
    expect(await (await call('olivia', 'GET', `/api/files/download/${file.id}`)).text()).toBe('the plan');
    expect(await trashOf('olivia')).toEqual([]);
    expect(await usedBy('sam')).toBe(samUsed);
    // Within the space the editor still moves it (into a folder of the shared tree).
    const sub = await json<Folder>(await call('sam', 'POST', '/api/folders', { name: 'Sub', parentId: lent.id }), 201);
    await json(await call('sam', 'PATCH', `/api/files/${file.id}`, { folderId: sub.id }));
    expect(await where('olivia', file.id)).toBe(sub.id);
    // The owner moves it out of her space.
    await json(await call('olivia', 'PATCH', `/api/files/${file.id}`, { folderId: ws.rootFolderId }));
    expect(await where('olivia', file.id)).toBe(ws.rootFolderId);

    // A workspace editor cannot take a workspace file into their personal space; an owner can.
    const team1 = await json<FileRecord>(await upload('olivia', `?workspaceId=${ws.id}`, 'team.txt', 'team'));
    expect(await failure(await call('edgar', 'PATCH', `/api/files/${team1.id}`, { folderId: edgarRoot }))).toBe(
      outOnly,
    );
    expect(await where('olivia', team1.id)).toBe(ws.rootFolderId);
    const inside = await json<Folder>(
      await call('edgar', 'POST', '/api/folders', { name: 'Inside', workspaceId: ws.id }),
      201,
    );
    await json(await call('edgar', 'PATCH', `/api/files/${team1.id}`, { folderId: inside.id }));
    expect(await where('vera', team1.id)).toBe(inside.id);
    // Sam is an owner of this workspace too: a workspace owner moves its files out.
    await json(await call('sam', 'PATCH', `/api/files/${team1.id}`, { folderId: samRoot }));
    expect(await where('sam', team1.id)).toBe(samRoot);
    expect((await call('edgar', 'GET', `/api/files/${team1.id}`)).status).toBe(404);
  });

  it('keeps each workspace within its own quota', async () => {
    const ws = await team('Quota');
    await json(await upload('olivia', `?workspaceId=${ws.id}`, 'big.bin', Buffer.alloc(WORKSPACE_QUOTA - 100, 1)));
    const refused = await upload('edgar', `?workspaceId=${ws.id}`, 'more.bin', Buffer.alloc(200, 2));
    expect(refused.status).toBe(413);
    expect((await readError(refused)).message).toMatch(/workspace's storage quota of 4.00 KB/);
    // A personal file that would not fit cannot be moved in either, and stays where it was.
    const mine = await json<FileRecord>(await upload('edgar', '', 'mine.bin', Buffer.alloc(200, 3)));
    expect((await call('edgar', 'PATCH', `/api/files/${mine.id}`, { folderId: ws.rootFolderId })).status).toBe(413);
    const list = await json<FileRecord[]>(await call('edgar', 'GET', '/api/files/user/edgar'));
    expect(list.map((f) => f.id)).toContain(mine.id);
  });

  it('gives share recipients the shared role on the file or on everything below a shared folder', async () => {
    const db = server.app.database.db;
    const projects = await json<Folder>(await call('olivia', 'POST', '/api/folders', { name: 'Projects' }), 201);
    const inner = await json<Folder>(
      await call('olivia', 'POST', '/api/folders', { name: 'Inner', parentId: projects.id }),
      201,
    );
    const deep = await json<FileRecord>(await upload('olivia', `?folderId=${inner.id}`, 'deep.txt', 'deep'));
    const lone = await json<FileRecord>(await upload('olivia', '', 'lone.txt', 'lone'));
    const share = (values: {
      file_id?: string;
      folder_id?: string;
      user?: string;
      workspace?: string;
      role: 'viewer' | 'editor';
    }) =>
      db
        .insertInto('shares')
        .values({
          id: randomUUID(),
          file_id: values.file_id ?? null,
          folder_id: values.folder_id ?? null,
          grantee_user_id: values.user ? (ids[values.user] ?? null) : null,
          grantee_workspace_id: values.workspace ?? null,
          role: values.role,
          created_by: ids.olivia ?? null,
          created_at: new Date().toISOString(),
        })
        .execute();

    expect((await call('nora', 'GET', `/api/files/download/${deep.id}`)).status).toBe(404);
    await share({ folder_id: projects.id, user: 'nora', role: 'viewer' });
    expect(await (await call('nora', 'GET', `/api/files/download/${deep.id}`)).text()).toBe('deep');
    // The breadcrumbs start at the shared folder: nothing above it is named.
    const listing = await json<FolderListing>(await call('nora', 'GET', `/api/folders/${inner.id}`));
    expect(listing.path.map((c) => c.name)).toEqual(['Projects', 'Inner']);
    expect(names(listing)).toEqual(['deep.txt']);
    expect((await call('nora', 'DELETE', `/api/files/user/${deep.id}`)).status).toBe(403);
    expect((await upload('nora', `?folderId=${inner.id}`, 'x.txt', 'x')).status).toBe(403);
    // Not shared: the rest of Olivia's space stays hidden.
    expect((await call('nora', 'GET', `/api/files/${lone.id}`)).status).toBe(404);
    expect((await call('nora', 'GET', `/api/folders/${projects.parentId ?? ''}`)).status).toBe(404);

    // An editor share on one file lets the recipient rename it, not delete it elsewhere or see its folder.
    await share({ file_id: lone.id, user: 'sam', role: 'editor' });
    expect(
      (await json<FileRecord>(await call('sam', 'PATCH', `/api/files/${lone.id}`, { fileName: 'renamed.txt' })))
        .fileName,
    ).toBe('renamed.txt');
    expect((await call('sam', 'GET', `/api/folders/${projects.id}`)).status).toBe(404);

    // A share with a workspace reaches each of its members, and stops when one leaves.
    const ws = await team('Readers');
    await share({ folder_id: inner.id, workspace: ws.id, role: 'editor' });
    const added = await json<FileRecord>(await upload('vera', `?folderId=${inner.id}`, 'from-vera.txt', 'v'));
    expect(added.fileName).toBe('from-vera.txt');
    // The file goes into Olivia's space and counts against her quota, whoever put it there.
    const olivia = await json<FileRecord[]>(await call('olivia', 'GET', '/api/files/user/olivia'));
    expect(olivia.map((f) => f.fileName)).toContain('from-vera.txt');
    await json(await call('vera', 'DELETE', `/api/workspaces/${ws.id}/members/vera`));
    expect((await call('vera', 'GET', `/api/files/download/${added.id}`)).status).toBe(404);
  });
});
