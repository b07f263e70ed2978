import type {
  DirectoryUser,
  FileRecord,
  Folder,
  FolderListing,
  Member,
  Space,
  Workspace,
  WorkspaceDetails,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';

describe.each(dialects())('workspaces, members and folders (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const person = (key: string, extra: { name?: string; email?: string } = {}) =>
    server.signInAs({
      owner_key: key,
      name: extra.name ?? key,
      email: extra.email ?? `${key}@example.test`,
      oidc_issuer: 'https://idp.example.test',
      oidc_subject: `sub-${key}`,
    });

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    for (const key of ['olivia', 'edgar', 'vera', 'nora']) cookies[key] = await person(key);
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  const { call, json } = callsAs(() => server, cookies);
  const failure = async (response: Response) => `${response.status} ${(await readError(response)).message}`;

  /** A workspace of olivia (owner) with edgar as editor and vera as viewer; nora is not a member. */
  async function team(name = 'Design'): Promise<Workspace> {
    const workspace = await json<Workspace>(await call('olivia', 'POST', '/api/workspaces', { name }), 201);
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/edgar`, { role: 'editor' }));
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/vera`, { role: 'viewer' }));
    return workspace;
  }

  it('creates a workspace whose creator is its owner, lists it, shows it in the space switcher', async () => {
    const created = await json<Workspace>(await call('olivia', 'POST', '/api/workspaces', { name: '  Launch  ' }), 201);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Launch',
      role: 'owner',
      rootFolderId: expect.any(String),
      createdAt: expect.any(String),
      memberCount: 1,
    });
    const details = await json<WorkspaceDetails>(await call('olivia', 'GET', `/api/workspaces/${created.id}`));
    expect(details).toMatchObject({ ...created, quotaBytes: 10 * 1024 ** 3, usedBytes: 0 });
    expect((await json<Workspace[]>(await call('olivia', 'GET', '/api/workspaces'))).map((w) => w.id)).toContain(
      created.id,
    );
    const spaces = await json<Space[]>(await call('olivia', 'GET', '/api/spaces'));
    expect(spaces[0]).toEqual({ kind: 'personal', id: null, name: 'Personal', rootFolderId: expect.any(String) });
    expect(spaces).toContainEqual({
      kind: 'workspace',
      id: created.id,
      name: 'Launch',
      role: 'owner',
      rootFolderId: created.rootFolderId,
    });
    // The personal root is created once, however often and however concurrently it is asked for.
    const again = await Promise.all(
      [1, 2, 3].map(() => call('nora', 'GET', '/api/spaces').then((r) => json<Space[]>(r))),
    );
    expect(new Set(again.map((s) => s[0]?.rootFolderId)).size).toBe(1);

    const root = await json<FolderListing>(await call('olivia', 'GET', `/api/folders/${created.rootFolderId}`));
    expect(root).toMatchObject({ name: 'Launch', parentId: null, workspaceId: created.id, folders: [], files: [] });

    // Rename (owner), then delete (owner): it is gone for everyone.
    const renamed = await json<WorkspaceDetails>(
      await call('olivia', 'PATCH', `/api/workspaces/${created.id}`, { name: 'Launch 2026' }),
    );
    expect(renamed.name).toBe('Launch 2026');
    expect(await json(await call('olivia', 'DELETE', `/api/workspaces/${created.id}`))).toEqual({
      id: created.id,
      deleted: true,
    });
    expect((await call('olivia', 'GET', `/api/workspaces/${created.id}`)).status).toBe(404);
    expect((await call('olivia', 'GET', `/api/folders/${created.rootFolderId}`)).status).toBe(404);
  });

  it('gives members their roles: viewers read, editors add folders, owners manage members', async () => {
    const workspace = await team();
    const members = await json<Member[]>(await call('vera', 'GET', `/api/workspaces/${workspace.id}/members`));
    expect(members.map((m) => [m.ownerKey, m.role])).toEqual([
      ['olivia', 'owner'],
      ['edgar', 'editor'],
      ['vera', 'viewer'],
    ]);
    expect(members[1]).toEqual({
      ownerKey: 'edgar',
      name: 'edgar',
      nickname: 'edgar',
      email: 'edgar@example.test',
      picture: null,
      role: 'editor',
      addedAt: expect.any(String),
      status: 'member',
    });
    expect((await json<Workspace[]>(await call('vera', 'GET', '/api/workspaces')))[0]).toMatchObject({
      role: 'viewer',
      memberCount: 3,
    });

    // A viewer cannot create a folder, an editor can.
    expect(await failure(await call('vera', 'POST', '/api/folders', { name: 'X', workspaceId: workspace.id }))).toBe(
      '403 You can only view this workspace. Ask one of its owners for editor access.',
    );
    const folder = await json<Folder>(
      await call('edgar', 'POST', '/api/folders', { name: 'Specs', workspaceId: workspace.id }),
      201,
    );
    expect(folder).toMatchObject({ name: 'Specs', parentId: workspace.rootFolderId, workspaceId: workspace.id });
    expect(folder.path).toEqual([
      { id: workspace.rootFolderId, name: 'Design' },
      { id: folder.id, name: 'Specs' },
    ]);
    expect(await failure(await call('vera', 'PATCH', `/api/folders/${folder.id}`, { name: 'Mine' }))).toBe(
      '403 You can only view this folder.',
    );
    expect((await call('vera', 'DELETE', `/api/folders/${folder.id}`)).status).toBe(403);
    expect((await json<FolderListing>(await call('vera', 'GET', `/api/folders/${folder.id}`))).name).toBe('Specs');

    // Only owners manage members or rename; editors get a clear 403.
    expect(
      await failure(await call('edgar', 'PUT', `/api/workspaces/${workspace.id}/members/nora`, { role: 'viewer' })),
    ).toBe('403 Only the owners of this workspace can do that.');
    expect((await call('edgar', 'PATCH', `/api/workspaces/${workspace.id}`, { name: 'Mine' })).status).toBe(403);
    expect((await call('edgar', 'DELETE', `/api/workspaces/${workspace.id}`)).status).toBe(403);

    // Non-members and admins outside it: 404 everywhere, as for a workspace that does not exist.
    for (const who of ['nora', 'admin']) {
      for (const [method, path] of [
        ['GET', `/api/workspaces/${workspace.id}`],
        ['GET', `/api/workspaces/${workspace.id}/members`],
        ['GET', `/api/folders/${folder.id}`],
        ['GET', `/api/folders/${workspace.rootFolderId}`],
        ['DELETE', `/api/folders/${folder.id}`],
      ] as const) {
        expect(`${who} ${method} ${path} ${(await call(who, method, path)).status}`).toBe(
          `${who} ${method} ${path} 404`,
        );
      }
      expect((await call(who, 'PATCH', `/api/workspaces/${workspace.id}`, { name: 'Taken' })).status).toBe(404);
    }
    expect(await failure(await call('nora', 'GET', `/api/workspaces/${workspace.id}`))).toBe(
      '404 Workspace not found.',
    );
    expect(await failure(await call('nora', 'GET', `/api/folders/${folder.id}`))).toBe('404 Folder not found.');
    // Nothing changed.
    expect((await json<WorkspaceDetails>(await call('olivia', 'GET', `/api/workspaces/${workspace.id}`))).name).toBe(
      'Design',
    );

    // Owners change roles and remove members.
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/vera`, { role: 'editor' }));
    await json(await call('vera', 'POST', '/api/folders', { name: 'Now I can', workspaceId: workspace.id }), 201);
    expect(await json(await call('olivia', 'DELETE', `/api/workspaces/${workspace.id}/members/vera`))).toEqual({
      ownerKey: 'vera',
      removed: true,
    });
    expect((await call('vera', 'GET', `/api/workspaces/${workspace.id}`)).status).toBe(404);
    expect(
      await failure(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/nobody`, { role: 'viewer' })),
    ).toBe('404 No one with that id has signed in. People appear once they have signed in.');
    expect((await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/nora`, { role: 'boss' })).status).toBe(
      400,
    );
  });

  it('keeps at least one owner: the last owner can neither leave nor be demoted until ownership is transferred', async () => {
    const workspace = await team('Handover');
    const members = `/api/workspaces/${workspace.id}/members`;
    expect(await failure(await call('olivia', 'DELETE', `${members}/olivia`))).toBe(
      '409 You are the last owner of this workspace, so you cannot leave it. Make another member an owner first, or delete the workspace.',
    );
    expect(await failure(await call('olivia', 'PUT', `${members}/olivia`, { role: 'editor' }))).toBe(
      '409 A workspace needs at least one owner. Make another member an owner first.',
    );
    // Transfer: edgar becomes an owner, then olivia steps down and leaves.
    await json(await call('olivia', 'PUT', `${members}/edgar`, { role: 'owner' }));
    await json(await call('olivia', 'PUT', `${members}/olivia`, { role: 'viewer' }));
    expect((await call('olivia', 'PUT', `${members}/vera`, { role: 'editor' })).status).toBe(403);
    expect(await json(await call('olivia', 'DELETE', `${members}/olivia`))).toEqual({
      ownerKey: 'olivia',
      removed: true,
    });
    // A viewer may leave too.
    await json(await call('vera', 'DELETE', `${members}/vera`));
    expect((await json<Member[]>(await call('edgar', 'GET', members))).map((m) => `${m.ownerKey}:${m.role}`)).toEqual([
      'edgar:owner',
    ]);
    expect(await failure(await call('edgar', 'DELETE', `${members}/edgar`))).toMatch(/^409 You are the last owner/);

    // Two owners stepping down at the same moment: one of them stays owner.
    for (let round = 0; round < 5; round++) {
      const pair = await team(`Race ${round}`);
      const path = `/api/workspaces/${pair.id}/members`;
      await json(await call('olivia', 'PUT', `${path}/edgar`, { role: 'owner' }));
      const statuses = await Promise.all([
        call('olivia', 'PUT', `${path}/olivia`, { role: 'editor' }).then((r) => r.status),
        call('edgar', 'DELETE', `${path}/edgar`).then((r) => r.status),
      ]);
      expect(statuses.sort()).toEqual([200, 409]);
      const owners = (await json<Member[]>(await call('vera', 'GET', path))).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    }
  });

  it('deletes a workspace with its folders and files, bytes included; members lose it', async () => {
    const workspace = await team('Doomed');
    const folder = await json<Folder>(
      await call('edgar', 'POST', '/api/folders', { name: 'Inside', workspaceId: workspace.id }),
      201,
    );
    const form = new FormData();
    form.append('file', new Blob(['workspace bytes']), 'w.txt');
    const file = await json<FileRecord>(
      await server.fetch('/api/files/upload?userId=olivia', {
        method: 'POST',
        headers: { cookie: cookies.olivia ?? '', accept: 'application/json' },
        body: form,
      }),
    );
    // Uploads into workspaces arrive with phase 2: place the file there directly.
    await server.app.database.db
      .updateTable('files')
      .set({ folder_id: folder.id, workspace_id: workspace.id })
      .where('id', '=', file.id)
      .execute();
    expect((await json<WorkspaceDetails>(await call('vera', 'GET', `/api/workspaces/${workspace.id}`))).usedBytes).toBe(
      15,
    );
    expect((await json<FolderListing>(await call('vera', 'GET', `/api/folders/${folder.id}`))).files).toEqual([file]);
    await json(await call('olivia', 'DELETE', `/api/workspaces/${workspace.id}`));
    for (const who of ['olivia', 'edgar', 'vera']) {
      expect((await call(who, 'GET', `/api/workspaces/${workspace.id}`)).status).toBe(404);
      expect((await json<Workspace[]>(await call(who, 'GET', '/api/workspaces'))).map((w) => w.id)).not.toContain(
        workspace.id,
      );
    }
    expect((await call('edgar', 'GET', `/api/folders/${folder.id}`)).status).toBe(404);
    expect(
      (await server.fetch(`/api/files/download/${file.id}`, { headers: { cookie: cookies.olivia ?? '' } })).status,
    ).toBe(404);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(`${server.dataDir}/blobs/files`)).not.toContain(file.id);
  });

  it('searches the directory of people who have signed in by name, nickname or email', async () => {
    await person('alice-smith', { name: 'Alice Smith', email: 'alice@corp.example' });
    await person('bob', { name: 'Bob Alison', email: 'bob@corp.example' });
    const search = async (q: string) =>
      (await json<DirectoryUser[]>(await call('nora', 'GET', `/api/users?q=${encodeURIComponent(q)}`))).map(
        (u) => u.ownerKey,
      );
    expect(await search('ali')).toEqual(['alice-smith', 'bob']);
    expect(await search('ALICE@corp')).toEqual(['alice-smith']);
    expect(await search('%')).toEqual([]);
    expect(await search('nobody-here')).toEqual([]);
    // The built-in admin has no identity-provider account: not in the directory.
    expect(await search('admin')).toEqual([]);
    const [alice] = await json<DirectoryUser[]>(await call('nora', 'GET', '/api/users?q=alice'));
    expect(alice).toEqual({
      ownerKey: 'alice-smith',
      name: 'Alice Smith',
      nickname: 'alice-smith',
      email: 'alice@corp.example',
      picture: null,
    });
    for (let i = 0; i < 25; i++) await person(`many-${String(i).padStart(2, '0')}`);
    expect(await search('many-')).toHaveLength(20);
    expect((await call('nora', 'GET', `/api/users?q=${'x'.repeat(101)}`)).status).toBe(400);
    expect((await server.fetch('/api/users?q=a')).status).toBe(401);
  });

  it('creates a folder under a taken name only when asked to: onConflict fail answers 409 NAME_TAKEN', async () => {
    const parent = await json<Folder>(await call('nora', 'POST', '/api/folders', { name: 'Brands' }), 201);
    const create = (name: string, onConflict?: 'fail' | 'rename') =>
      call('nora', 'POST', '/api/folders', { name, parentId: parent.id, ...(onConflict ? { onConflict } : {}) });
    expect((await json<Folder>(await create('brand', 'fail'), 201)).name).toBe('brand');
    // Case-insensitive, as every folder name: refused with the name, nothing created.
    const refused = await create('BRAND', 'fail');
    expect(refused.status).toBe(409);
    expect(await readError(refused)).toMatchObject({
      code: 'NAME_TAKEN',
      message: 'A folder named “BRAND” already exists here.',
    });
    const listing = await json<FolderListing>(await call('nora', 'GET', `/api/folders/${parent.id}`));
    expect(listing.folders.map((f) => f.name)).toEqual(['brand']);
    // Keep both, and the old clients' default: numbered.
    expect((await json<Folder>(await create('brand', 'rename'), 201)).name).toBe('brand (1)');
    expect((await json<Folder>(await create('brand'), 201)).name).toBe('brand (2)');
    expect((await create('brand', 'ask' as 'fail')).status).toBe(400);
  });

  it('creates, renames and moves folders: clashes become "name (1)", cycles and bad names are refused', async () => {
    const create = (name: string, parentId?: string) =>
      call('nora', 'POST', '/api/folders', { name, ...(parentId ? { parentId } : {}) });
    const a = await json<Folder>(await create('Projects'), 201);
    expect(a.workspaceId).toBeNull();
    expect(a.path.map((c) => c.name)).toEqual(['Personal', 'Projects']);
    expect((await json<Folder>(await create('projects'), 201)).name).toBe('projects (1)');
    expect((await json<Folder>(await create('PROJECTS'), 201)).name).toBe('PROJECTS (2)');
    const b = await json<Folder>(await create('Drafts', a.id), 201);
    const c = await json<Folder>(await create('Old', b.id), 201);
    expect(c.path.map((x) => x.name)).toEqual(['Personal', 'Projects', 'Drafts', 'Old']);

    // Bad names: 400 with the reason, nothing created.
    const before = await json<FolderListing>(await call('nora', 'GET', `/api/folders/${a.id}`));
    for (const [name, message] of [
      ['', 'Give the folder a name.'],
      ['  ', 'Give the folder a name.'],
      ['a/b', 'A folder name cannot contain / or \\.'],
      ['a\\b', 'A folder name cannot contain / or \\.'],
      ['..', 'A folder name cannot be . or ..'],
      ['bell\u0007', 'A folder name cannot contain control characters.'],
      ['x'.repeat(256), 'A folder name can be at most 255 characters.'],
    ] as const) {
      expect(await failure(await create(name, a.id))).toBe(`400 ${message}`);
    }
    expect((await call('nora', 'POST', '/api/folders', { parentId: a.id })).status).toBe(400);
    expect(await json<FolderListing>(await call('nora', 'GET', `/api/folders/${a.id}`))).toEqual(before);

    // Rename: a case change of its own name is no clash; a sibling's name is numbered.
    expect((await json<Folder>(await call('nora', 'PATCH', `/api/folders/${b.id}`, { name: 'DRAFTS' }))).name).toBe(
      'DRAFTS',
    );
    await json(await create('Notes', a.id), 201);
    expect((await json<Folder>(await call('nora', 'PATCH', `/api/folders/${b.id}`, { name: 'notes' }))).name).toBe(
      'notes (1)',
    );
    // Move into itself or a subfolder: 409, nothing moved.
    expect(await failure(await call('nora', 'PATCH', `/api/folders/${a.id}`, { parentId: c.id }))).toBe(
      '409 A folder cannot be moved into itself or into one of its subfolders.',
    );
    expect((await call('nora', 'PATCH', `/api/folders/${a.id}`, { parentId: a.id })).status).toBe(409);
    expect((await json<FolderListing>(await call('nora', 'GET', `/api/folders/${a.id}`))).parentId).toBe(a.parentId);
    // Move up to the root, where "Old" is free.
    const moved = await json<Folder>(await call('nora', 'PATCH', `/api/folders/${c.id}`, { parentId: a.parentId }));
    expect(moved.path.map((x) => x.name)).toEqual(['Personal', 'Old']);
    // Not into another space, not the root, not an empty change, not someone else's folder.
    const workspace = await team('Elsewhere');
    expect(
      await failure(await call('olivia', 'PATCH', `/api/folders/${c.id}`, { parentId: workspace.rootFolderId })),
    ).toBe('404 Folder not found.');
    await json(await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/nora`, { role: 'editor' }));
    expect(
      await failure(await call('nora', 'PATCH', `/api/folders/${c.id}`, { parentId: workspace.rootFolderId })),
    ).toBe('400 Folders can only be moved within their space.');
    expect(await failure(await call('nora', 'PATCH', `/api/folders/${a.parentId ?? ''}`, { name: 'Root' }))).toBe(
      '400 The root folder of a space cannot be renamed, moved or deleted.',
    );
    expect((await call('nora', 'DELETE', `/api/folders/${a.parentId ?? ''}`)).status).toBe(400);
    expect((await call('nora', 'PATCH', `/api/folders/${c.id}`, {})).status).toBe(400);
    expect((await call('nora', 'POST', '/api/folders', { name: 'X', workspaceId: 'no-such-workspace' })).status).toBe(
      404,
    );
    expect(
      await failure(
        await call('nora', 'POST', '/api/folders', { name: 'X', workspaceId: workspace.id, parentId: a.id }),
      ),
    ).toBe('400 That parent folder is not in this workspace.');
  });

  it('deletes a folder with its subfolders and their files: to the trash, then for good with their bytes', async () => {
    const top = await json<Folder>(await call('nora', 'POST', '/api/folders', { name: 'To delete' }), 201);
    const sub = await json<Folder>(await call('nora', 'POST', '/api/folders', { name: 'Sub', parentId: top.id }), 201);
    const subsub = await json<Folder>(
      await call('nora', 'POST', '/api/folders', { name: 'Deeper', parentId: sub.id }),
      201,
    );
    // Files in folders arrive with phase 2's uploads; place two uploaded files here directly.
    const upload = async (name: string) => {
      const form = new FormData();
      form.append('file', new Blob([`bytes of ${name}`]), name);
      const response = await server.fetch('/api/files/upload?userId=nora', {
        method: 'POST',
        headers: { cookie: cookies.nora ?? '', accept: 'application/json' },
        body: form,
      });
      return json<FileRecord>(response);
    };
    const [f1, f2] = [await upload('one.txt'), await upload('two.txt')];
    const { db } = server.app.database;
    await db.updateTable('files').set({ folder_id: sub.id }).where('id', '=', f1.id).execute();
    await db.updateTable('files').set({ folder_id: subsub.id }).where('id', '=', f2.id).execute();
    const listing = await json<FolderListing>(await call('nora', 'GET', `/api/folders/${sub.id}`));
    expect(listing.folders.map((f) => f.name)).toEqual(['Deeper']);
    expect(listing.files).toEqual([{ ...f1 }]);
    expect(
      (await server.fetch(`/api/files/download/${f2.id}`, { headers: { cookie: cookies.nora ?? '' } })).status,
    ).toBe(200);

    expect(await json(await call('nora', 'DELETE', `/api/folders/${top.id}`))).toEqual({
      id: top.id,
      deleted: true,
      folders: 3,
      files: 2,
    });
    for (const id of [top.id, sub.id, subsub.id])
      expect((await call('nora', 'GET', `/api/folders/${id}`)).status).toBe(404);
    for (const file of [f1, f2]) {
      expect(
        (await server.fetch(`/api/files/download/${file.id}`, { headers: { cookie: cookies.nora ?? '' } })).status,
      ).toBe(404);
    }
    // In the trash until purged: then the rows and the bytes go.
    expect((await call('nora', 'DELETE', `/api/trash/${top.id}`)).status).toBe(200);
    for (const file of [f1, f2]) {
      expect(await server.app.database.db.selectFrom('files').select('id').where('id', '=', file.id).execute()).toEqual(
        [],
      );
    }
    expect(
      await server.app.database.db
        .selectFrom('folders')
        .select('id')
        .where('id', 'in', [top.id, sub.id, subsub.id])
        .execute(),
    ).toEqual([]);
    const blobs = await import('node:fs').then((fs) => fs.readdirSync(`${server.dataDir}/blobs/files`));
    expect(blobs).not.toContain(f1.id);
    expect(blobs).not.toContain(f2.id);
  });

  it('pages and sorts a folder: folders first, then files, by name, date, size or type', async () => {
    const parent = await json<Folder>(await call('nora', 'POST', '/api/folders', { name: 'Paged' }), 201);
    for (const name of ['beta', 'Alpha', 'gamma']) {
      await json(await call('nora', 'POST', '/api/folders', { name, parentId: parent.id }), 201);
    }
    const { db } = server.app.database;
    const files = [
      { name: 'b.txt', size: 30, type: 'text/plain', date: '2026-01-03T00:00:00.000Z' },
      { name: 'A.png', size: 10, type: 'image/png', date: '2026-01-01T00:00:00.000Z' },
      { name: 'c.pdf', size: 20, type: 'application/pdf', date: '2026-01-02T00:00:00.000Z' },
    ];
    for (const [i, f] of files.entries()) {
      await db
        .insertInto('files')
        .values({
          id: `paged-${i}`,
          owner_key: 'nora',
          file_name: f.name,
          name_key: f.name.toLowerCase(),
          size: f.size,
          content_type: f.type,
          sha256: 'x',
          blob_key: `files/paged-${i}`,
          upload_date: f.date,
          folder_id: parent.id,
          workspace_id: null,
          uploaded_by: null,
        })
        .execute();
    }
    /** Every entry, walking the pages `limit` at a time. */
    const walk = async (query: string, limit: number) => {
      const names: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: FolderListing = await json<FolderListing>(
          await call(
            'nora',
            'GET',
            `/api/folders/${parent.id}?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
          ),
        );
        expect(page.folders.length + page.files.length).toBeLessThanOrEqual(limit);
        names.push(...page.folders.map((f) => `${f.name}/`), ...page.files.map((f) => f.fileName));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      return names;
    };
    for (const limit of [1, 2, 3, 100]) {
      expect(await walk('sort=name', limit)).toEqual(['Alpha/', 'beta/', 'gamma/', 'A.png', 'b.txt', 'c.pdf']);
      expect(await walk('sort=name&order=desc', limit)).toEqual([
        'gamma/',
        'beta/',
        'Alpha/',
        'c.pdf',
        'b.txt',
        'A.png',
      ]);
      expect((await walk('sort=size', limit)).slice(3)).toEqual(['A.png', 'c.pdf', 'b.txt']);
      expect((await walk('sort=date&order=desc', limit)).slice(3)).toEqual(['b.txt', 'c.pdf', 'A.png']);
      expect((await walk('sort=type', limit)).slice(3)).toEqual(['c.pdf', 'A.png', 'b.txt']);
    }
    // Only the entries with one of these names ("/" between them), case-insensitively, paged like the rest.
    for (const limit of [1, 100]) {
      expect(await walk(`names=${encodeURIComponent('a.PNG/BETA/missing.txt')}`, limit)).toEqual(['beta/', 'A.png']);
      expect(await walk(`names=${encodeURIComponent('/ /')}`, limit)).toEqual([]);
    }
    const tooMany = Array.from({ length: 201 }, (_, i) => `n${i}.txt`).join('/');
    expect(
      await failure(await call('nora', 'GET', `/api/folders/${parent.id}?names=${encodeURIComponent(tooMany)}`)),
    ).toBe('400 The request is not valid: querystring.names: At most 200 names at once.');
    // A cursor of another sort, or garbage: 400 with a way out.
    const first = await json<FolderListing>(await call('nora', 'GET', `/api/folders/${parent.id}?sort=name&limit=2`));
    expect(
      await failure(await call('nora', 'GET', `/api/folders/${parent.id}?sort=size&cursor=${first.nextCursor}`)),
    ).toBe('400 The cursor is not valid for this folder and sort. Start again from the first page.');
    expect((await call('nora', 'GET', `/api/folders/${parent.id}?cursor=garbage`)).status).toBe(400);
    expect((await call('nora', 'GET', `/api/folders/${parent.id}?sort=colour`)).status).toBe(400);
    expect((await call('nora', 'GET', `/api/folders/${parent.id}?limit=0`)).status).toBe(400);
  });

  it('refuses bad workspace input with 4xx and changes nothing', async () => {
    const before = await json<Workspace[]>(await call('edgar', 'GET', '/api/workspaces'));
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'a\u0000b' },
      { name: 5 },
    ]) {
      const response = await call('edgar', 'POST', '/api/workspaces', body);
      expect(response.status).toBe(400);
    }
    expect(
      await server
        .fetch('/api/workspaces', {
          method: 'POST',
          headers: { cookie: cookies.edgar ?? '', 'content-type': 'application/json' },
          body: '{',
        })
        .then((r) => r.status),
    ).toBe(400);
    expect(await json<Workspace[]>(await call('edgar', 'GET', '/api/workspaces'))).toEqual(before);
    expect((await server.fetch('/api/workspaces', { method: 'POST' })).status).toBe(401);
  });
});
