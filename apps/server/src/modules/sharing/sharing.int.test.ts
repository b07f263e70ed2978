import type {
  FileRecord,
  Folder,
  FolderListing,
  Notification,
  RevokeShareResponse,
  Share,
  SharedWithMe,
  ShareList,
  Workspace,
} from '@atrium/contracts';
import { sharedWithYouMessage } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callsAs,
  dialects,
  readError,
  readJson,
  signInPeople,
  startTestServer,
  type TestServer,
} from '../../../test/helpers';

/**
 * Sharing with people and workspaces (docs/PRODUCT.md#sharing-with-people): granting, changing and revoking shares of
 * files and folders, what a recipient can then do through the ordinary file and folder routes, Shared with me, and the
 * notifications.
 */
describe.each(dialects())('sharing with people and workspaces (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(
      cookies,
      await signInPeople(server, ['alice', 'bob', 'carol', 'dave'], (key) => key[0]?.toUpperCase() + key.slice(1)),
    );
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const failure = async (response: Response) => {
    const error = await readError(response);
    return `${response.status} ${error.code} ${error.message}`;
  };
  const feed = async (who: string) =>
    (await json<Notification[]>(await call(who, 'GET', '/public/api/notifications?limit=200'))).map((n) => n.message);
  const download = async (who: string, id: string) => {
    const response = await call(who, 'GET', `/api/files/download/${id}`);
    return response.status === 200 ? await response.text() : response.status;
  };

  /** Alice's personal folder `Project` with a subfolder `Sub` holding `deep.txt`, and `report.txt` at her root. */
  async function aliceTree(tag: string) {
    const project = await json<Folder>(await call('alice', 'POST', '/api/folders', { name: `Project ${tag}` }), 201);
    const sub = await json<Folder>(
      await call('alice', 'POST', '/api/folders', { name: 'Sub', parentId: project.id }),
      201,
    );
    const deep = await json<FileRecord>(await upload('alice', `?folderId=${sub.id}`, 'deep.txt', `deep ${tag}`));
    const report = await json<FileRecord>(await upload('alice', '', `report-${tag}.txt`, `report ${tag}`));
    return { project, sub, deep, report };
  }

  it('shares a file with a person: 201, then 200 on a role change; the recipient reads it, others get 404', async () => {
    const { report } = await aliceTree('a');
    expect(await download('bob', report.id)).toBe(404);

    const created = await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'viewer' });
    expect(created.status).toBe(201);
    const share = await readJson<Share>(created);
    expect(share).toMatchObject({
      role: 'viewer',
      grantee: { kind: 'user', user: { ownerKey: 'bob', name: 'Bob' } },
      createdBy: 'Alice',
    });
    expect(await download('bob', report.id)).toBe('report a');
    expect(await download('carol', report.id)).toBe(404);
    // The spec's other file routes follow the same rule: the recipient reads the record, others get 404.
    expect(await json<FileRecord>(await call('bob', 'GET', `/api/files/${report.id}`))).toMatchObject({
      id: report.id,
      fileName: 'report-a.txt',
    });
    expect(await failure(await call('carol', 'GET', `/api/files/${report.id}`))).toMatch(/^404 FILE_NOT_FOUND/);
    // Ranged downloads work through a share too.
    const ranged = await server.fetch(`/api/files/download/${report.id}`, {
      headers: { cookie: cookies.bob ?? '', range: 'bytes=0-5' },
    });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('report');
    expect(await feed('bob')).toContain(sharedWithYouMessage('Alice', 'report-a.txt'));
    expect(await feed('carol')).not.toContain(sharedWithYouMessage('Alice', 'report-a.txt'));

    // The same grant again changes nothing and tells no one twice; a new role is a change (200), and is told.
    const again = await json<Share>(
      await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'viewer' }),
    );
    expect(again.id).toBe(share.id);
    expect((await feed('bob')).filter((m) => m === sharedWithYouMessage('Alice', 'report-a.txt'))).toHaveLength(1);
    // A viewer cannot rename, delete or re-share.
    expect((await call('bob', 'PATCH', `/api/files/${report.id}`, { fileName: 'mine.txt' })).status).toBe(403);
    expect((await call('bob', 'DELETE', `/api/files/user/${report.id}`)).status).toBe(403);
    expect(await failure(await call('bob', 'PUT', `/api/files/${report.id}/shares/carol`, { role: 'viewer' }))).toBe(
      '403 FORBIDDEN You can only view this file.',
    );
    expect((await call('bob', 'GET', `/api/files/${report.id}/shares`)).status).toBe(403);

    const changed = await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'editor' });
    expect(changed.status).toBe(200);
    expect((await readJson<Share>(changed)).role).toBe('editor');
    expect((await feed('bob')).filter((m) => m === sharedWithYouMessage('Alice', 'report-a.txt'))).toHaveLength(2);
    // An editor renames and sees who has access.
    expect((await call('bob', 'PATCH', `/api/files/${report.id}`, { fileName: 'renamed-a.txt' })).status).toBe(200);
    const list = await json<ShareList>(await call('bob', 'GET', `/api/files/${report.id}/shares`));
    expect(list.owner).toMatchObject({ kind: 'user', user: { ownerKey: 'alice', name: 'Alice' } });
    expect(
      list.shares.map((s) => [s.grantee.kind === 'user' ? s.grantee.user.ownerKey : s.grantee.id, s.role]),
    ).toEqual([['bob', 'editor']]);
    // Others do not learn the file exists.
    expect(await failure(await call('carol', 'GET', `/api/files/${report.id}/shares`))).toMatch(/^404 FILE_NOT_FOUND/);
    expect((await call('carol', 'PUT', `/api/files/${report.id}/shares/carol`, { role: 'viewer' })).status).toBe(404);
    expect((await call('carol', 'PUT', `/api/files/${report.id}/shares/dave`, { role: 'viewer' })).status).toBe(404);
  });

  it('refuses unknown people, oneself, the owner and bad roles with clear 4xx answers', async () => {
    const { report, project } = await aliceTree('b');
    expect(await failure(await call('alice', 'PUT', `/api/files/${report.id}/shares/nobody`, { role: 'viewer' }))).toBe(
      '404 USER_NOT_FOUND No one with that id has signed in. People appear once they have signed in.',
    );
    expect(
      await failure(await call('alice', 'PUT', `/api/folders/${project.id}/shares/alice`, { role: 'editor' })),
    ).toBe('400 BAD_REQUEST You cannot share with yourself.');
    expect((await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'owner' })).status).toBe(400);
    expect((await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, {})).status).toBe(400);
    expect(await failure(await call('alice', 'PUT', '/api/files/missing/shares/bob', { role: 'viewer' }))).toMatch(
      /^404 FILE_NOT_FOUND/,
    );
    expect(await failure(await call('alice', 'DELETE', `/api/files/${report.id}/shares/bob`))).toBe(
      '404 NOT_FOUND There is no such share on this item.',
    );
    // The owner of a personal item cannot be given a share of it (an editor re-sharing it back).
    await json(await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'editor' }), 201);
    expect(await failure(await call('bob', 'PUT', `/api/files/${report.id}/shares/alice`, { role: 'viewer' }))).toBe(
      '400 BAD_REQUEST That person owns this already.',
    );
  });

  it('shares a folder and everything below it; viewers read, editors change; revoking ends access', async () => {
    const { project, sub, deep } = await aliceTree('c');
    expect((await call('bob', 'GET', `/api/folders/${project.id}`)).status).toBe(404);
    await json(await call('alice', 'PUT', `/api/folders/${project.id}/shares/bob`, { role: 'viewer' }), 201);

    const listing = await json<FolderListing>(await call('bob', 'GET', `/api/folders/${project.id}`));
    expect(listing.folders.map((f) => f.name)).toEqual(['Sub']);
    const inner = await json<FolderListing>(await call('bob', 'GET', `/api/folders/${sub.id}`));
    expect(inner.files.map((f) => f.fileName)).toEqual(['deep.txt']);
    expect(await download('bob', deep.id)).toBe('deep c');
    for (const who of ['carol', 'admin']) {
      expect((await call(who, 'GET', `/api/folders/${sub.id}`)).status).toBe(404);
    }
    // A viewer cannot upload, rename or delete below the shared folder.
    expect((await upload('bob', `?folderId=${sub.id}`, 'new.txt', 'x')).status).toBe(403);
    expect((await call('bob', 'PATCH', `/api/files/${deep.id}`, { fileName: 'x.txt' })).status).toBe(403);
    expect((await call('bob', 'DELETE', `/api/files/user/${deep.id}`)).status).toBe(403);
    expect((await call('bob', 'DELETE', `/api/folders/${sub.id}`)).status).toBe(403);

    // As editor: upload, rename, delete.
    expect((await call('alice', 'PUT', `/api/folders/${project.id}/shares/bob`, { role: 'editor' })).status).toBe(200);
    const added = await json<FileRecord>(await upload('bob', `?folderId=${sub.id}`, 'from-bob.txt', 'hello'));
    expect(await download('alice', added.id)).toBe('hello');
    expect((await call('bob', 'PATCH', `/api/files/${deep.id}`, { fileName: 'deeper.txt' })).status).toBe(200);
    expect((await call('bob', 'DELETE', `/api/files/user/${added.id}`)).status).toBe(200);

    const revoked = await json<RevokeShareResponse>(
      await call('alice', 'DELETE', `/api/folders/${project.id}/shares/bob`),
    );
    expect(revoked.revoked).toBe(true);
    expect((await call('bob', 'GET', `/api/folders/${project.id}`)).status).toBe(404);
    expect((await call('bob', 'GET', `/api/folders/${sub.id}`)).status).toBe(404);
    expect(await download('bob', deep.id)).toBe(404);
    expect((await call('alice', 'DELETE', `/api/folders/${project.id}/shares/bob`)).status).toBe(404);
  });

  it('lists Shared with me (strongest role, newest first) and lets a recipient drop a share', async () => {
    cookies.erin = await server.signInAs({
      owner_key: 'erin',
      name: 'Erin',
      oidc_issuer: 'https://idp.example.test',
      oidc_subject: 'sub-erin',
    });
    const { project, report } = await aliceTree('d');
    await json(await call('alice', 'PUT', `/api/files/${report.id}/shares/erin`, { role: 'viewer' }), 201);
    await json(await call('alice', 'PUT', `/api/folders/${project.id}/shares/erin`, { role: 'editor' }), 201);
    const mine = await json<SharedWithMe>(await call('erin', 'GET', '/api/shared-with-me'));
    expect(mine.files.map((f) => [f.fileName, f.role, f.sharedBy])).toEqual([['report-d.txt', 'viewer', 'Alice']]);
    expect(mine.files[0]).toMatchObject({ id: report.id, fileId: report.id, size: report.size });
    expect(mine.folders.map((f) => [f.name, f.role, f.sharedBy])).toEqual([['Project d', 'editor', 'Alice']]);
    // Nothing is shared with the sharer herself.
    const alices = await json<SharedWithMe>(await call('alice', 'GET', '/api/shared-with-me'));
    expect(alices.files.map((f) => f.id)).not.toContain(report.id);

    // Erin drops the file's share herself; it leaves her list and her access.
    const dropped = await json<RevokeShareResponse>(
      await call('erin', 'DELETE', `/api/files/${report.id}/shares/erin`),
    );
    expect(dropped.revoked).toBe(true);
    expect(await download('erin', report.id)).toBe(404);
    const after = await json<SharedWithMe>(await call('erin', 'GET', '/api/shared-with-me'));
    expect(after.files).toEqual([]);
    expect(after.folders).toHaveLength(1);
    // She cannot drop someone else's share of an item she cannot share.
    await json(await call('alice', 'PUT', `/api/files/${report.id}/shares/bob`, { role: 'viewer' }), 201);
    expect((await call('erin', 'DELETE', `/api/files/${report.id}/shares/bob`)).status).toBe(404);
  });

  it('shares with a workspace: its members read it, are notified (not the sharer), and list it', async () => {
    // Dave's workspace Team, with Alice and Bob as viewers; Carol is not a member.
    const team = await json<Workspace>(await call('dave', 'POST', '/api/workspaces', { name: 'Team' }), 201);
    for (const who of ['alice', 'bob']) {
      await json(await call('dave', 'PUT', `/api/workspaces/${team.id}/members/${who}`, { role: 'viewer' }));
    }
    const { report, project } = await aliceTree('e');
    const created = await call('alice', 'PUT', `/api/files/${report.id}/shares/workspaces/${team.id}`, {
      role: 'viewer',
    });
    expect(created.status).toBe(201);
    expect(await readJson<Share>(created)).toMatchObject({ grantee: { kind: 'workspace', id: team.id, name: 'Team' } });
    const told = sharedWithYouMessage('Alice', 'report-e.txt');
    expect(await feed('bob')).toContain(told);
    expect(await feed('dave')).toContain(told);
    expect(await feed('alice')).not.toContain(told);
    expect(await feed('carol')).not.toContain(told);
    expect(await download('bob', report.id)).toBe('report e');
    expect(await download('carol', report.id)).toBe(404);
    const bobs = await json<SharedWithMe>(await call('bob', 'GET', '/api/shared-with-me'));
    expect(bobs.files.map((f) => f.id)).toContain(report.id);

    // Only members may name a workspace: to others it does not exist.
    expect(
      await failure(
        await call('carol', 'PUT', `/api/files/${report.id}/shares/workspaces/${team.id}`, { role: 'viewer' }),
      ),
    ).toMatch(/^404 FILE_NOT_FOUND/);
    const carols = await json<FileRecord>(await upload('carol', '', 'carol.txt', 'c'));
    expect(
      await failure(
        await call('carol', 'PUT', `/api/files/${carols.id}/shares/workspaces/${team.id}`, { role: 'viewer' }),
      ),
    ).toMatch(/^404 WORKSPACE_NOT_FOUND/);
    // A workspace's own items are not shared with it (its members have their roles).
    const inTeam = await json<Folder>(
      await call('dave', 'POST', '/api/folders', { name: 'Inside', workspaceId: team.id }),
      201,
    );
    expect(
      await failure(
        await call('dave', 'PUT', `/api/folders/${inTeam.id}/shares/workspaces/${team.id}`, { role: 'editor' }),
      ),
    ).toMatch(/^400 BAD_REQUEST/);
    // Folder list shows the workspace owner; revoking a workspace share ends the members' access.
    await json(await call('dave', 'PUT', `/api/folders/${inTeam.id}/shares/carol`, { role: 'viewer' }), 201);
    const list = await json<ShareList>(await call('dave', 'GET', `/api/folders/${inTeam.id}/shares`));
    expect(list.owner).toEqual({ kind: 'workspace', id: team.id, name: 'Team' });
    expect((await call('bob', 'GET', `/api/folders/${inTeam.id}/shares`)).status).toBe(403);
    // A member of the receiving workspace cannot turn it down; its owner can.
    expect((await call('bob', 'DELETE', `/api/files/${report.id}/shares/workspaces/${team.id}`)).status).toBe(403);
    await json(await call('dave', 'DELETE', `/api/files/${report.id}/shares/workspaces/${team.id}`));
    expect(await download('bob', report.id)).toBe(404);
    // The sharer revokes too.
    await json(
      await call('alice', 'PUT', `/api/files/${report.id}/shares/workspaces/${team.id}`, { role: 'viewer' }),
      201,
    );
    expect(await download('bob', report.id)).toBe('report e');
    await json(await call('alice', 'DELETE', `/api/files/${report.id}/shares/workspaces/${team.id}`));
    expect(await download('bob', report.id)).toBe(404);
    expect((await call('alice', 'GET', `/api/folders/${project.id}/shares`)).status).toBe(200);
  });
});
