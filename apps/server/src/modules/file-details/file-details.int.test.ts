import { createHash } from 'node:crypto';
import type { AuditPage, FileDetails, FileRecord, FileVersionList, Folder, Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';

const TUS = { 'tus-resumable': '1.0.0' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A file's details (docs/PRODUCT.md#file-details): the file with its stored SHA-256, where it is, its versions, who can
 * read it and its links (for who may share it), and its activity — every upload, rename, move, share, replace and
 * version restore recorded in the audit log about it, newest first, with the actor's name.
 */
describe.each(dialects())('file details (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    for (const [key, name] of [
      ['dora', 'Dora Details'],
      ['vince', 'Vince Viewer'],
      ['erin', 'Erin Editor'],
    ] as const) {
      cookies[key] = await server.signInAs({ owner_key: key, name });
    }
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const details = async (who: string, id: string) =>
    json<FileDetails>(await call(who, 'GET', `/api/files/${id}/details`));

  it('shows the file, its SHA-256, location and versions, and every change in its activity, newest first', async () => {
    const projects = await json<Folder>(await call('dora', 'POST', '/api/folders', { name: 'Projects' }), 201);
    const archive = await json<Folder>(
      await call('dora', 'POST', '/api/folders', { name: 'Archive', parentId: projects.id }),
      201,
    );
    const file = await json<FileRecord>(await upload('dora', `?folderId=${projects.id}`, 'plan.txt', 'first plan'));

    const fresh = await details('dora', file.id);
    expect(fresh).toMatchObject({
      id: file.id,
      name: 'plan.txt',
      contentType: 'text/plain',
      size: 10,
      sha256: sha256('first plan'),
      updatedAt: file.uploadDate,
      createdAt: file.uploadDate,
      versions: { count: 0, bytes: 0 },
      yourRole: 'owner',
      location: { spaceKind: 'personal', spaceId: null, spaceName: 'Personal', folderId: projects.id },
      links: [],
    });
    expect(fresh.location.path.map((crumb) => crumb.name).slice(1)).toEqual(['Projects']);
    expect(fresh.access).toEqual([
      {
        kind: 'owner',
        principal: { type: 'user', id: expect.any(String), name: 'Dora Details' },
        role: 'owner',
        via: null,
      },
    ]);
    expect(fresh.activity).toEqual([
      {
        action: 'file.uploaded',
        actor: 'Dora Details',
        at: expect.any(String),
        details: { name: 'plan.txt', size: 10 },
      },
    ]);

    // Rename, move, share, replace (a new version), restore the old version.
    await json(await call('dora', 'PATCH', `/api/files/${file.id}`, { fileName: 'roadmap.txt' }));
    await json(await call('dora', 'PATCH', `/api/files/${file.id}`, { folderId: archive.id }));
    await json(await call('dora', 'PUT', `/api/files/${file.id}/shares/vince`, { role: 'viewer' }), 201);
    await json(await upload('dora', `?folderId=${archive.id}&onConflict=replace`, 'roadmap.txt', 'second plan!'));
    const { versions } = await json<FileVersionList>(await call('dora', 'GET', `/api/files/${file.id}/versions`));
    await json(await call('dora', 'POST', `/api/files/${file.id}/versions/${versions[0]?.id}/restore`));
    const link = await json<{ id: string }>(await call('dora', 'POST', '/api/links', { fileId: file.id }), 201);

    const after = await details('dora', file.id);
    expect(after).toMatchObject({
      name: 'roadmap.txt',
      size: 10,
      sha256: sha256('first plan'),
      versions: { count: 1, bytes: 12 },
      location: { folderId: archive.id },
    });
    expect(after.updatedAt > file.uploadDate).toBe(true);
    // The first content is gone (restored, it stopped being a version): the upload's entry still dates the file.
    expect(after.createdAt).toBe(after.activity.find((entry) => entry.action === 'file.uploaded')?.at);
    expect(after.createdAt < after.updatedAt).toBe(true);
    expect(after.location.path.map((crumb) => crumb.name).slice(1)).toEqual(['Projects', 'Archive']);
    expect(after.links?.map((l) => l.id)).toEqual([link.id]);
    expect(after.access).toContainEqual({
      kind: 'share',
      principal: { type: 'user', id: expect.any(String), name: 'Vince Viewer' },
      role: 'viewer',
      via: null,
    });
    expect(after.activity.map((entry) => [entry.action, entry.actor])).toEqual([
      ['link.created', 'Dora Details'],
      ['file.version_restored', 'Dora Details'],
      ['file.version_added', 'Dora Details'],
      ['share.created', 'Dora Details'],
      ['file.moved', 'Dora Details'],
      ['file.renamed', 'Dora Details'],
      ['file.uploaded', 'Dora Details'],
    ]);
    const byAction = new Map(after.activity.map((entry) => [entry.action, entry.details]));
    expect(byAction.get('file.renamed')).toEqual({ from: 'plan.txt', to: 'roadmap.txt' });
    expect(byAction.get('file.moved')).toEqual({
      name: 'roadmap.txt',
      from: { id: projects.id, name: 'Projects' },
      to: { id: archive.id, name: 'Archive' },
    });
    expect(byAction.get('share.created')).toMatchObject({ role: 'viewer' });
    expect(byAction.get('file.version_added')).toEqual({ name: 'roadmap.txt', size: 12 });
    expect(byAction.get('file.version_restored')).toMatchObject({ name: 'roadmap.txt', size: 10 });
    const times = after.activity.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());

    // The share recipient (a viewer) sees the file where it was shared, but not who else can read it, nor links.
    const seen = await details('vince', file.id);
    expect(seen).toMatchObject({
      sha256: sha256('first plan'),
      yourRole: 'viewer',
      access: null,
      links: null,
      location: { spaceKind: 'shared', spaceName: 'Shared with me', folderId: null, path: [] },
    });
    expect(seen.activity.map((entry) => entry.action)).toEqual([
      'file.version_restored',
      'file.version_added',
      'file.moved',
      'file.renamed',
      'file.uploaded',
    ]);
    // Someone it is not shared with learns nothing: 404, the same as an unknown id.
    const hidden = await call('erin', 'GET', `/api/files/${file.id}/details`);
    expect(hidden.status).toBe(404);
    expect((await readError(hidden)).code).toBe('FILE_NOT_FOUND');
    const unknown = await call('dora', 'GET', '/api/files/no-such-file/details');
    expect(unknown.status).toBe(404);
    expect((await readError(unknown)).code).toBe('FILE_NOT_FOUND');
  });

  it('records uploads through tus and a file drop, folder renames and moves, and keeps the other space out of a move', async () => {
    // A tus upload (one request: creation with the bytes).
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        ...TUS,
        cookie: cookies.erin ?? '',
        'upload-length': '9',
        'upload-metadata': `filename ${Buffer.from('tus.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const patched = await server.fetch(created.headers.get('location') ?? '', {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: cookies.erin ?? '',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'tus bytes',
    });
    expect(patched.status).toBe(204);
    const tusId = patched.headers.get('x-atrium-file-id') ?? '';
    const tusDetails = await details('erin', tusId);
    expect(tusDetails.sha256).toBe(sha256('tus bytes'));
    expect(tusDetails.activity).toEqual([
      { action: 'file.uploaded', actor: 'Erin Editor', at: expect.any(String), details: { name: 'tus.bin', size: 9 } },
    ]);

    // An anonymous upload through a file-drop link: no actor.
    const drop = await json<Folder>(await call('erin', 'POST', '/api/folders', { name: 'Inbox' }), 201);
    const link = await json<{ token: string }>(
      await call('erin', 'POST', '/api/links', { folderId: drop.id, allowUpload: true }),
      201,
    );
    const form = new FormData();
    form.append('file', new Blob(['dropped']), 'dropped.txt');
    expect((await server.fetch(`/api/public/links/${link.token}/upload`, { method: 'POST', body: form })).status).toBe(
      201,
    );
    const listing = await json<{ files: FileRecord[] }>(await call('erin', 'GET', `/api/folders/${drop.id}`));
    const dropped = listing.files.find((f) => f.fileName === 'dropped.txt');
    expect((await details('erin', dropped?.id ?? '')).activity).toEqual([
      {
        action: 'file.uploaded',
        actor: null,
        at: expect.any(String),
        details: { name: 'dropped.txt', size: 7, via: 'link' },
      },
    ]);

    // Moving a file into a workspace: the members see that it came from another space, not from which folder.
    const ws = await json<Workspace>(await call('erin', 'POST', '/api/workspaces', { name: 'Team' }), 201);
    await json(await call('erin', 'PATCH', `/api/files/${tusId}`, { folderId: ws.rootFolderId }));
    const moved = (await details('erin', tusId)).activity[0];
    expect(moved).toMatchObject({
      action: 'file.moved',
      details: { from: { otherSpace: true }, to: { id: ws.rootFolderId } },
    });
    expect(JSON.stringify(moved?.details)).not.toContain(tusDetails.location.folderId ?? '');

    // Folder renames and moves are audited too.
    const sub = await json<Folder>(await call('erin', 'POST', '/api/folders', { name: 'Old name' }), 201);
    await json(await call('erin', 'PATCH', `/api/folders/${sub.id}`, { name: 'New name' }));
    await json(await call('erin', 'PATCH', `/api/folders/${sub.id}`, { parentId: drop.id }));
    const audit = await json<AuditPage>(await call('admin', 'GET', `/api/admin/audit?target=folder:${sub.id}`));
    expect(audit.entries.map((entry) => [entry.action, entry.details])).toEqual([
      [
        'folder.moved',
        { name: 'New name', from: { id: sub.parentId, name: expect.any(String) }, to: { id: drop.id, name: 'Inbox' } },
      ],
      ['folder.renamed', { from: 'Old name', to: 'New name' }],
    ]);
  });
});
