import {
  ADMIN_USER_MESSAGES,
  type AdminUser,
  type AuditPage,
  type FileRecord,
  type FileVersionList,
  type Folder,
  type FolderListing,
  type Space,
  type TransferFilesResponse,
  type TrashList,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Transfer files (docs/PRODUCT.md#admin-console-users-and-audit-log): the one way an admin acts on someone's files.
 * Everything of a disabled person's personal space moves into a new folder of the recipient's, in one go, with its
 * versions, trash, shares to others and search documents; the transfer is audited. Anything refused changes nothing.
 */
describe.each(dialects())('admin console: transfer files (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(
      cookies,
      await signInPeople(server, ['gina', 'rita', 'sam', 'walt'], (key) => (key === 'gina' ? 'Gina Gone' : key)),
    );
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const failure = async (response: Response) => `${response.status} ${(await readError(response)).message}`;
  const names = (listing: FolderListing) => [
    ...listing.folders.map((f) => `${f.name}/`),
    ...listing.files.map((f) => f.fileName),
  ];
  const rootOf = async (who: string) =>
    (await json<Space[]>(await call(who, 'GET', '/api/spaces')))[0]?.rootFolderId ?? '';
  const userRow = async (key: string) =>
    (await json<AdminUser[]>(await call('admin', 'GET', `/api/admin/users?q=${key}`))).find((u) => u.userId === key);
  const transfer = (from: string, toUserId: string) =>
    call('admin', 'POST', `/api/admin/users/${from}/transfer`, { toUserId });

  it("moves a disabled person's files, folders, versions and trash into a new folder of the recipient's space", async () => {
    // Gina: a file with an older version at her root, a folder with a file, a trashed file; Projects is shared with
    // Sam (that share stays) and with Rita (who will own it: that share goes).
    const notes = await json<FileRecord>(await upload('gina', '', 'notes.txt', 'first'));
    await json(await upload('gina', '?onConflict=replace', 'notes.txt', 'second'));
    const projects = await json<Folder>(await call('gina', 'POST', '/api/folders', { name: 'Projects' }), 201);
    const plan = await json<FileRecord>(await upload('gina', `?folderId=${projects.id}`, 'zebraplan.txt', 'plan'));
    const old = await json<FileRecord>(await upload('gina', '', 'old.txt', 'old'));
    await json(await call('gina', 'DELETE', `/api/files/user/${old.id}`));
    await json(await call('gina', 'PUT', `/api/folders/${projects.id}/shares/sam`, { role: 'viewer' }), 201);
    await json(await call('gina', 'PUT', `/api/folders/${projects.id}/shares/rita`, { role: 'editor' }), 201);
    // Rita already has a folder of that name: the new one is numbered.
    await json(await call('rita', 'POST', '/api/folders', { name: 'From Gina Gone' }), 201);
    const ginaUsed = (await userRow('gina'))?.usedBytes ?? 0;
    const ritaUsed = (await userRow('rita'))?.usedBytes ?? 0;
    expect(ginaUsed).toBe('second'.length + 'first'.length + 'plan'.length + 'old'.length);

    // Only for a disabled account, to someone else who exists and is enabled; refusals change nothing.
    expect(await failure(await transfer('gina', 'rita'))).toBe(`409 ${ADMIN_USER_MESSAGES.transferNotDisabled}`);
    await json(await call('admin', 'PATCH', '/api/admin/users/gina', { disabled: true }));
    await json(await call('admin', 'PATCH', '/api/admin/users/walt', { disabled: true }));
    expect(await failure(await transfer('gina', 'gina'))).toBe(`400 ${ADMIN_USER_MESSAGES.transferToSelf}`);
    expect(await failure(await transfer('gina', 'nobody'))).toBe(`404 ${ADMIN_USER_MESSAGES.recipientNotFound}`);
    expect(await failure(await transfer('gina', 'walt'))).toBe(`409 ${ADMIN_USER_MESSAGES.recipientDisabled}`);
    expect(await failure(await transfer('nobody', 'rita'))).toBe(`404 ${ADMIN_USER_MESSAGES.notFound}`);
    expect((await call('admin', 'POST', '/api/admin/users/gina/transfer', {})).status).toBe(400);
    expect((await call('rita', 'POST', '/api/admin/users/gina/transfer', { toUserId: 'rita' })).status).toBe(403);
    expect((await userRow('gina'))?.usedBytes).toBe(ginaUsed);

    const moved = await json<TransferFilesResponse>(await transfer('gina', 'rita'));
    expect(moved).toMatchObject({ from: 'gina', to: 'rita', folderName: 'From Gina Gone (1)', files: 3, folders: 1 });
    expect(moved.bytes).toBe(ginaUsed);
    // The bytes now count against Rita, none against Gina.
    expect((await userRow('gina'))?.usedBytes).toBe(0);
    expect((await userRow('rita'))?.usedBytes).toBe(ritaUsed + ginaUsed);

    // Rita finds everything in the new folder of her personal space, with its versions and content.
    const ritaRoot = await rootOf('rita');
    expect(names(await json<FolderListing>(await call('rita', 'GET', `/api/folders/${ritaRoot}`)))).toEqual(
      expect.arrayContaining(['From Gina Gone/', 'From Gina Gone (1)/']),
    );
    const inside = await json<FolderListing>(await call('rita', 'GET', `/api/folders/${moved.folderId}`));
    expect(names(inside)).toEqual(['Projects/', 'notes.txt']);
    expect(await (await call('rita', 'GET', `/api/files/download/${plan.id}`)).text()).toBe('plan');
    expect(await (await call('rita', 'GET', `/api/files/download/${notes.id}`)).text()).toBe('second');
    const versions = await json<FileVersionList>(await call('rita', 'GET', `/api/files/${notes.id}/versions`));
    expect(versions.versions).toHaveLength(1);
    // Search follows (the documents carry the space): Rita finds the file by name and content is hers to search.
    const found = await json<{ items: { id: string }[] }>(await call('rita', 'GET', '/api/search?q=zebraplan'));
    expect(found.items.map((i) => i.id)).toEqual([plan.id]);
    // The trashed file is in Rita's trash and restores into the new folder.
    const trash = await json<TrashList>(await call('rita', 'GET', '/api/trash'));
    expect(trash.items.map((i) => i.id)).toContain(old.id);
    const restored = await json<{ folderId: string }>(await call('rita', 'POST', `/api/trash/${old.id}/restore`));
    expect(restored.folderId).toBe(moved.folderId);
    // Rita owns Projects now: the share to her is gone; Sam's stays, and Rita may manage it.
    const shares = await json<{ owner: { kind: string; user?: { id: string } }; shares: { grantee: unknown }[] }>(
      await call('rita', 'GET', `/api/folders/${projects.id}/shares`),
    );
    expect(shares.shares).toHaveLength(1);
    expect(JSON.stringify(shares.shares[0])).toContain('sam');
    expect(await (await call('sam', 'GET', `/api/files/download/${plan.id}`)).text()).toBe('plan');
    // Rita, the owner now, may move what she received anywhere.
    await json(await call('rita', 'PATCH', `/api/files/${plan.id}`, { folderId: moved.folderId }));

    // Audited, with who did it, from whom, to whom and what moved.
    const { entries } = await json<AuditPage>(
      await call('admin', 'GET', '/api/admin/audit?action=user.files_transferred&target=user:gina'),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: 'admin',
      target: 'user:gina',
      details: { to: 'rita', folderId: moved.folderId, folderName: 'From Gina Gone (1)', files: 3, folders: 1 },
    });

    // Nothing is left to transfer a second time: an empty folder, nothing moved.
    const again = await json<TransferFilesResponse>(await transfer('gina', 'sam'));
    expect(again).toMatchObject({ folderName: 'From Gina Gone', files: 0, folders: 0, bytes: 0 });
    expect(names(await json<FolderListing>(await call('rita', 'GET', `/api/folders/${moved.folderId}`)))).toEqual([
      'Projects/',
      'notes.txt',
      'old.txt',
      'zebraplan.txt',
    ]);
  });
});
