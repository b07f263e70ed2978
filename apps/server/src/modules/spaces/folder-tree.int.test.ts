import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  AuditPage,
  DeleteFolderResponse,
  Folder,
  FolderListing,
  Link,
  SearchResponse,
  Workspace,
} from '@atrium/contracts';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoldersTable } from '../../db/schema';
import {
  createPostgresDatabase,
  dialects,
  readError,
  readJson,
  startTestServer,
  uploadFile,
  type TestServer,
} from '../../../test/helpers';
import { unzip } from '../../../test/zip';
import { folderNameKey } from './folder-names';
import { MAX_FOLDER_DEPTH } from '../../db/folder-walk';
import { FOLDER_DEPTH_MESSAGE } from './folder-depth';
import { FOLDER_MESSAGES } from './folders.service';
import { createSpacesRepository } from './spaces.repository';

/** Every request of these tests gives up after this long: a hang fails the test instead of stalling it. */
const REQUEST_TIMEOUT_MS = 15_000;

const person = (server: TestServer, key: string) =>
  server.signInAs({
    owner_key: key,
    name: key,
    email: `${key}@example.test`,
    oidc_issuer: 'https://idp.example.test',
    oidc_subject: `sub-${key}`,
  });

/** The folders of a deep tree, written straight into the table in one transaction (not thousands of HTTP calls). */
async function insertChain(
  server: TestServer,
  under: { id: string; workspace_id: string | null; owner_key: string | null },
  levels: number,
  name = (level: number) => `L${level}`,
): Promise<string[]> {
  const db = server.app.database.db;
  const now = new Date().toISOString();
  const rows: Insertable<FoldersTable>[] = [];
  let parent = under.id;
  for (let level = 1; level <= levels; level++) {
    const id = randomUUID();
    rows.push({
      id,
      workspace_id: under.workspace_id,
      owner_key: under.owner_key,
      parent_id: parent,
      name: name(level),
      name_key: folderNameKey(name(level)),
      created_by: null,
      created_at: now,
      updated_at: now,
      trashed_at: null,
      trashed_by: null,
      trash_root_id: null,
    });
    parent = id;
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 400)
      await trx
        .insertInto('folders')
        .values(rows.slice(i, i + 400))
        .execute();
  });
  return rows.map((row) => row.id);
}

/** Folder `id`'s row as stored. */
const stored = (server: TestServer, id: string) =>
  server.app.database.db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe.each(dialects())('folder depth, cycles and deep trees (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let workspace: Workspace;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    for (const key of ['olivia', 'edgar', 'nora']) cookies[key] = await person(server, key);
    workspace = await readJson<Workspace>(await call('olivia', 'POST', '/api/workspaces', { name: 'Deep' }));
    expect(
      (await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/edgar`, { role: 'editor' })).status,
    ).toBe(200);
  });
  afterAll(async () => server?.close());

  function call(who: string | null, method: string, pathname: string, body?: unknown): Promise<Response> {
    return server.fetch(pathname, {
      method,
      headers: {
        ...(who ? { cookie: cookies[who] ?? '' } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
  const folder = async (name: string, parentId?: string) => {
    const response = await call('olivia', 'POST', '/api/folders', {
      name,
      workspaceId: workspace.id,
      ...(parentId ? { parentId } : {}),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return readJson<Folder>(response);
  };
  const under = (id: string) => ({ id, workspace_id: workspace.id, owner_key: null });
  const conflict = async (response: Response) => {
    const error = await readError(response);
    return `${response.status} ${error.code} ${error.message}`;
  };

  it('creates folders down to the cap and refuses one level more (409)', async () => {
    const top = await folder('Cap');
    // `top` is level 1: the chain below it ends at level MAX_FOLDER_DEPTH.
    const chain = await insertChain(server, under(top.id), MAX_FOLDER_DEPTH - 1);
    const deepest = chain.at(-1) ?? '';
    const refused = await call('olivia', 'POST', '/api/folders', { name: 'one more', parentId: deepest });
    expect(await conflict(refused)).toBe(`409 CONFLICT ${FOLDER_DEPTH_MESSAGE}`);
    expect(FOLDER_DEPTH_MESSAGE).toBe('Folders can be nested at most 100 levels deep.');
    const listing = await readJson<FolderListing>(await call('olivia', 'GET', `/api/folders/${deepest}`));
    expect(listing.folders).toEqual([]);
    // One level higher there is room for exactly one.
    const created = await call('olivia', 'POST', '/api/folders', { name: 'last', parentId: chain.at(-2) });
    expect(created.status).toBe(201);
    expect((await readJson<Folder>(created)).path).toHaveLength(MAX_FOLDER_DEPTH + 1);
  });

  it('refuses a move that would take the moved subtree past the cap, and a move into its own subtree', async () => {
    const top = await folder('Tall');
    const chain = await insertChain(server, under(top.id), MAX_FOLDER_DEPTH - 2);
    const atCapMinus1 = chain.at(-1) ?? ''; // level MAX - 1
    const moved = await folder('Moved');
    const child = await folder('Child', moved.id);
    // Moved (level 1) with one level below it: into level MAX - 1 it would end at MAX + 1.
    const tooDeep = await call('olivia', 'PATCH', `/api/folders/${moved.id}`, { parentId: atCapMinus1 });
    expect(await conflict(tooDeep)).toBe(`409 CONFLICT ${FOLDER_DEPTH_MESSAGE}`);
    expect((await stored(server, moved.id)).parent_id).toBe(workspace.rootFolderId);
    // Its leaf alone fits (level MAX).
    const fits = await call('olivia', 'PATCH', `/api/folders/${child.id}`, { parentId: atCapMinus1 });
    expect(fits.status).toBe(200);
    expect((await readJson<Folder>(fits)).path).toHaveLength(MAX_FOLDER_DEPTH + 1);

    const a = await folder('A');
    const b = await folder('B', a.id);
    for (const target of [a.id, b.id]) {
      const cycle = await call('olivia', 'PATCH', `/api/folders/${a.id}`, { parentId: target });
      expect(await conflict(cycle)).toBe(`409 CONFLICT ${FOLDER_MESSAGES.cycle}`);
    }
    expect((await stored(server, a.id)).parent_id).toBe(workspace.rootFolderId);
  });

  it('refuses the original attack: moving the top of a chain deeper than the old 10,000-level walk below its end', async () => {
    const top = await folder('Attack');
    // Stored directly (the cap makes it impossible through the API): 10,100 levels below `top`.
    const chain = await insertChain(server, under(top.id), 10_100);
    const deepest = chain.at(-1) ?? '';
    for (const who of ['olivia', 'edgar']) {
      const refused = await call(who, 'PATCH', `/api/folders/${top.id}`, { parentId: deepest });
      expect(refused.status).toBe(409);
      expect((await readError(refused)).code).toBe('CONFLICT');
    }
    expect((await stored(server, top.id)).parent_id).toBe(workspace.rootFolderId);
    // The deepest folder still answers (its path is cut where the bounded walk ends).
    expect((await call('edgar', 'GET', `/api/folders/${deepest}`)).status).toBe(200);
    // Deleting the whole chain takes one bounded walk per step; the cut-off part stays for the repair.
    expect((await call('olivia', 'DELETE', `/api/folders/${chain[0]}`)).status).toBe(200);
  });

  it('never makes a cycle from two opposite moves at once', async () => {
    const a = await folder('Ping');
    const b = await folder('Pong');
    for (let round = 0; round < 15; round++) {
      const [ab, ba] = await Promise.all([
        call(round % 2 ? 'edgar' : 'olivia', 'PATCH', `/api/folders/${a.id}`, { parentId: b.id }),
        call('olivia', 'PATCH', `/api/folders/${b.id}`, { parentId: a.id }),
      ]);
      const statuses = [ab.status, ba.status].sort();
      expect(statuses).toEqual([200, 409]);
      const [rowA, rowB] = await Promise.all([stored(server, a.id), stored(server, b.id)]);
      expect(rowA.parent_id === b.id && rowB.parent_id === a.id).toBe(false);
      // Both back at the root for the next round.
      const moved = rowA.parent_id === b.id ? a : b;
      expect(
        (await call('olivia', 'PATCH', `/api/folders/${moved.id}`, { parentId: workspace.rootFolderId })).status,
      ).toBe(200);
    }
  });

  it('serves a tree at the cap: listing, breadcrumbs, move, link zip and delete', async () => {
    const top = await folder('Full');
    const chain = await insertChain(server, under(top.id), MAX_FOLDER_DEPTH - 1);
    const deepest = chain.at(-1) ?? '';
    const file = await readJson<{ id: string }>(
      await uploadFile(server, cookies.olivia ?? '', `?folderId=${deepest}`, 'bottom.txt', 'at the bottom'),
    );
    expect(file.id).toEqual(expect.any(String));

    const listing = await readJson<FolderListing>(await call('edgar', 'GET', `/api/folders/${deepest}`));
    expect(listing.files.map((f) => f.fileName)).toEqual(['bottom.txt']);
    const names = Array.from({ length: MAX_FOLDER_DEPTH - 1 }, (_, i) => `L${i + 1}`);
    expect(listing.path.map((crumb) => crumb.name)).toEqual(['Deep', 'Full', ...names]);

    const link = await readJson<Link>(await call('olivia', 'POST', '/api/links', { folderId: top.id }));
    const viaLink = await call(null, 'GET', `/api/public/links/${link.token}/files/${file.id}/download`);
    expect(await viaLink.text()).toBe('at the bottom');
    const zip = await call(null, 'GET', `/api/public/links/${link.token}/zip`);
    expect(zip.status).toBe(200);
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()));
    expect(entries.get([...names, 'bottom.txt'].join('/'))?.toString()).toBe('at the bottom');

    // Moving the deepest folder up to the root, and back under its old parent.
    const up = await call('olivia', 'PATCH', `/api/folders/${deepest}`, { parentId: workspace.rootFolderId });
    expect((await readJson<Folder>(up)).path.map((crumb) => crumb.name)).toEqual(['Deep', `L${MAX_FOLDER_DEPTH - 1}`]);
    const back = await call('olivia', 'PATCH', `/api/folders/${deepest}`, { parentId: chain.at(-2) });
    expect((await readJson<Folder>(back)).path).toHaveLength(MAX_FOLDER_DEPTH + 1);

    const removed = await readJson<DeleteFolderResponse>(await call('olivia', 'DELETE', `/api/folders/${top.id}`));
    expect(removed).toEqual({ id: top.id, deleted: true, folders: MAX_FOLDER_DEPTH, files: 1 });
    // Restored from the trash into its old place: it fits again.
    const restored = await call('olivia', 'POST', `/api/trash/${top.id}/restore`);
    expect(restored.status).toBe(200);
  });

  it('restores from the trash only where the tree stays within the cap (409 otherwise)', async () => {
    const tall = await folder('Restored');
    await insertChain(server, under(tall.id), 3);
    const top = await folder('Host');
    const chain = await insertChain(server, under(top.id), MAX_FOLDER_DEPTH - 3);
    // Trashed at level 1, then its old parent is moved down to level MAX - 2: the 4 levels no longer fit there.
    const place = await folder('Place');
    const inner = await folder('Inner', place.id);
    await call('olivia', 'PATCH', `/api/folders/${tall.id}`, { parentId: inner.id });
    expect((await call('olivia', 'DELETE', `/api/folders/${tall.id}`)).status).toBe(200);
    expect((await call('olivia', 'PATCH', `/api/folders/${place.id}`, { parentId: chain.at(-1) })).status).toBe(200);
    const refused = await call('olivia', 'POST', `/api/trash/${tall.id}/restore`);
    expect(await conflict(refused)).toBe(`409 CONFLICT ${FOLDER_DEPTH_MESSAGE}`);
    expect((await stored(server, tall.id)).trashed_at).not.toBeNull();
  });
});

describe.each(dialects())('a folder cycle stored in the database (%s)', (dialect) => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let deep: string[] = [];

  const start = async () => {
    server = await startTestServer({ dialect, dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  };
  function call(who: string | null, method: string, pathname: string, body?: unknown): Promise<Response> {
    return server.fetch(pathname, {
      method,
      headers: {
        ...(who ? { cookie: cookies[who] ?? '' } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-cycle-'));
    if (dialect === 'postgres') ({ url: databaseUrl, drop } = await createPostgresDatabase());
    await start();
    for (const key of ['olivia', 'edgar', 'nora']) cookies[key] = await person(server, key);
    const workspace = await readJson<Workspace>(await call('olivia', 'POST', '/api/workspaces', { name: 'Loop' }));
    await call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/edgar`, { role: 'editor' });
    ids.root = workspace.rootFolderId;
    const make = async (name: string, parentId: string) =>
      (await readJson<Folder>(await call('olivia', 'POST', '/api/folders', { name, parentId }))).id;
    ids.a = await make('Alpha', ids.root);
    ids.b = await make('Beta', ids.a);
    ids.c = await make('Gamma', ids.b);
    ids.file = (
      await readJson<{ id: string }>(
        await uploadFile(server, cookies.olivia ?? '', `?folderId=${ids.c}`, 'looped.txt', 'inside the loop'),
      )
    ).id;
    expect((await call('olivia', 'PUT', `/api/folders/${ids.b}/shares/nora`, { role: 'viewer' })).status).toBe(201);
    ids.token = (await readJson<Link>(await call('olivia', 'POST', '/api/links', { folderId: ids.b }))).token;
    // A tree stored deeper than the cap (as before it existed): 250 levels.
    deep = await insertChain(
      server,
      { id: ids.root, workspace_id: workspace.id, owner_key: null },
      250,
      (l) => `D${l}`,
    );
    // A cycle written straight into the table: Alpha → Beta → Gamma → Alpha.
    await server.app.database.db.updateTable('folders').set({ parent_id: ids.c }).where('id', '=', ids.a).execute();
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request touching it (bounded walks), as an editor, a share recipient and a link bearer', async () => {
    expect((await call('edgar', 'GET', `/api/folders/${ids.c}`)).status).toBe(200);
    expect((await call('nora', 'GET', `/api/folders/${ids.c}`)).status).toBe(200);
    const download = await call(null, 'GET', `/api/public/links/${ids.token}/files/${ids.file}/download`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('inside the loop');
    const search = await call('nora', 'GET', '/api/search?q=looped');
    expect((await readJson<SearchResponse>(search)).items.map((item) => item.name)).toEqual(['looped.txt']);
    expect((await call('edgar', 'GET', '/api/search?q=gamma')).status).toBe(200);
    expect((await call('olivia', 'GET', `/api/files/${ids.file}/details`)).status).toBe(200);
    // A move into the loop is refused, not walked forever.
    const into = await call('olivia', 'PATCH', `/api/folders/${ids.b}`, { parentId: ids.c });
    expect(into.status).toBe(409);
  });

  it('is repaired at the next start: a cycle member and each folder past the cap go back to the root, audited', async () => {
    await server.close();
    await start();
    cookies.olivia = await person(server, 'olivia');
    const parents = await Promise.all(
      [ids.a, ids.b, ids.c].map(async (id) => (await stored(server, id ?? '')).parent_id),
    );
    // Exactly one member of the loop now hangs from the root; the rest keep their parents.
    expect(parents.filter((parent) => parent === ids.root)).toHaveLength(1);
    expect(await createSpacesRepository(server.app.database.db).strandedFolders()).toEqual([]);
    const listing = await readJson<FolderListing>(await call('olivia', 'GET', `/api/folders/${ids.c}`));
    expect(listing.path[0]?.id).toBe(ids.root);
    expect(listing.files.map((f) => f.fileName)).toEqual(['looped.txt']);
    // A start on a healthy table changes nothing.
    await server.close();
    await start();
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const entries = await readJson<AuditPage>(await call('admin', 'GET', '/api/admin/audit?action=folder.moved'));
    const repaired = entries.entries.filter((entry) => entry.actor === null);
    expect(repaired.map((entry) => entry.details?.repaired).sort()).toEqual(['cycle', 'too deep', 'too deep']);
    expect(repaired.find((entry) => entry.details?.repaired === 'cycle')?.details).toMatchObject({
      to: { id: ids.root },
    });
    // The 250-level tree: level 101 went to the root, then what was level 201 (level 101 again after that).
    for (const level of [101, 201]) expect((await stored(server, deep[level - 1] ?? '')).parent_id).toBe(ids.root);
    expect((await stored(server, deep[149] ?? '')).parent_id).toBe(deep[148]);
  });
});
