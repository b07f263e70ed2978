import type { FileRecord, Folder, SearchResponse, SearchResult, Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';
import { createSearchRepository } from './search.repository';

/**
 * Search (docs/PRODUCT.md#search) through HTTP on both engines: what each caller finds (own space, workspaces, shares,
 * never another's), prefix matching, ranking, filters, paging, the index following renames, moves and deletes, content
 * text from `setContent`, and hostile query text.
 */
/** The first bytes of each kind of file, as the server's sniffing (file-type) recognises them. */
const MAGIC = {
  png: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  wav: Uint8Array.from([...Buffer.from('RIFF'), 36, 0, 0, 0, ...Buffer.from('WAVEfmt '), 16, 0, 0, 0, 1, 0, 1, 0]),
  mp4: Uint8Array.from([
    0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 0, 0, 0x69, 0x73, 0x6f, 0x6d, 0x6d, 0x70, 0x34,
    0x32,
  ]),
  pdf: new TextEncoder().encode('%PDF-1.4\n%test\n'),
  bin: Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 0xff, 0xfe]),
};

describe.each(dialects())('search (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(cookies, await signInPeople(server, ['ana', 'ben', 'cleo', 'dan']));
  });
  afterAll(async () => server?.close());

  const { call, json } = callsAs(() => server, cookies);
  const upload = async (
    who: string,
    query: string,
    name: string,
    content: string | Uint8Array = `bytes of ${name}`,
  ) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const response = await server.fetch(`/api/files/upload${query}`, {
      method: 'POST',
      headers: { cookie: cookies[who] ?? '', accept: 'application/json' },
      body: form,
    });
    return json<FileRecord>(response);
  };
  const folder = (who: string, body: { name: string; parentId?: string; workspaceId?: string }) =>
    call(who, 'POST', '/api/folders', body).then((r) => json<Folder>(r, 201));
  const search = async (who: string, params: Record<string, string>) =>
    json<SearchResponse>(await call(who, 'GET', `/api/search?${new URLSearchParams(params).toString()}`));
  const names = async (who: string, q: string, extra: Record<string, string> = {}) =>
    (await search(who, { q, ...extra })).items.map((item) => item.name);

  it('finds by name prefix as you type, in the caller’s own space, with snippet and location', async () => {
    const reports = await folder('ana', { name: 'Reports 2026' });
    const file = await upload('ana', `?folderId=${reports.id}`, 'quarterly-report.pdf', MAGIC.pdf);
    for (const q of ['qua', 'QUART', 'rep', 'report pdf', 'pdf quar']) {
      expect(await names('ana', q), q).toContain('quarterly-report.pdf');
    }
    expect(await names('ana', 'xyzzy')).toEqual([]);
    const hit = (await search('ana', { q: 'quarterly' })).items.find((item) => item.id === file.id);
    expect(hit).toEqual({
      kind: 'file',
      id: file.id,
      name: 'quarterly-report.pdf',
      matchedIn: 'name',
      snippet: 'quarterly-report.pdf',
      highlights: [{ start: 0, end: 9 }],
      location: {
        spaceKind: 'personal',
        spaceId: null,
        spaceName: 'Personal',
        folderId: reports.id,
        path: [expect.objectContaining({ id: expect.any(String) }), { id: reports.id, name: 'Reports 2026' }],
      },
      size: file.size,
      mimeType: 'application/pdf',
      modifiedAt: file.uploadDate,
    });
    // Folders are found too (never a space's root), located in their parent.
    const found = (await search('ana', { q: 'reports' })).items.find((item) => item.kind === 'folder');
    expect(found).toMatchObject({ id: reports.id, name: 'Reports 2026', size: null, mimeType: null });
    expect(found?.location.path).toHaveLength(1);
  });

  it('ranks name matches first and names starting with the word before others', async () => {
    await upload('ben', '', 'old budget notes.txt');
    await upload('ben', '', 'budget.xlsx');
    const listing = await names('ben', 'budg');
    expect(listing.slice(0, 2)).toEqual(['budget.xlsx', 'old budget notes.txt']);
  });

  it('never shows another user’s files, a workspace to non-members, but shows shares and files inside shared folders', async () => {
    const ws = await json<Workspace>(await call('ana', 'POST', '/api/workspaces', { name: 'Marsupial team' }), 201);
    await json(await call('ana', 'PUT', `/api/workspaces/${ws.id}/members/ben`, { role: 'viewer' }));
    const plans = await folder('ana', { name: 'Plans', workspaceId: ws.id });
    await upload('ana', `?folderId=${plans.id}`, 'wombat-roadmap.md');
    await upload('ana', '', 'wombat-diary.txt');

    // The member (viewer) finds the workspace file with its workspace location; the personal file stays hidden.
    const benHits = (await search('ben', { q: 'wombat' })).items;
    expect(benHits.map((i) => i.name)).toEqual(['wombat-roadmap.md']);
    expect(benHits[0]?.location).toMatchObject({
      spaceKind: 'workspace',
      spaceId: ws.id,
      spaceName: 'Marsupial team',
      folderId: plans.id,
    });
    // A non-member and the admin (no role in workspaces nor in others' personal spaces) find nothing.
    expect(await names('cleo', 'wombat')).toEqual([]);
    expect(await names('admin', 'wombat')).toEqual([]);
    expect(await names('cleo', 'plans')).toEqual([]);

    // Ana shares her personal folder Deep/Inner with cleo: files inside it (and below) are found, with the path
    // from the shared folder down; what is above stays hidden; Deep itself is not found.
    const deep = await folder('ana', { name: 'Koala deep' });
    const inner = await folder('ana', { name: 'Koala inner', parentId: deep.id });
    const below = await folder('ana', { name: 'Koala below', parentId: inner.id });
    const inside = await upload('ana', `?folderId=${below.id}`, 'koala-census.csv');
    await upload('ana', `?folderId=${deep.id}`, 'koala-private.txt');
    expect(await names('cleo', 'koala')).toEqual([]);
    await json(await call('ana', 'PUT', `/api/folders/${inner.id}/shares/cleo`, { role: 'viewer' }), 201);
    const cleoHits = (await search('cleo', { q: 'koala' })).items;
    expect(cleoHits.map((i) => i.name).sort()).toEqual(['Koala below', 'Koala inner', 'koala-census.csv']);
    const census = cleoHits.find((i) => i.id === inside.id);
    expect(census?.location).toEqual({
      spaceKind: 'shared',
      spaceId: null,
      spaceName: 'Shared with me',
      folderId: below.id,
      path: [
        { id: inner.id, name: 'Koala inner' },
        { id: below.id, name: 'Koala below' },
      ],
    });
    // The shared folder itself is found, with nothing above it shown.
    expect(cleoHits.find((i) => i.id === inner.id)?.location).toMatchObject({ folderId: null, path: [] });
    expect(await names('cleo', 'koala', { spaceId: 'shared' })).toHaveLength(3);
    expect(await names('cleo', 'koala', { spaceId: 'personal' })).toEqual([]);

    // A file shared alone (to a workspace dan is a member of) is found by dan, with no folder to open.
    const dansTeam = await json<Workspace>(await call('ben', 'POST', '/api/workspaces', { name: 'Dan team' }), 201);
    await json(await call('ben', 'PUT', `/api/workspaces/${dansTeam.id}/members/dan`, { role: 'viewer' }));
    await json(await call('ben', 'PUT', `/api/workspaces/${dansTeam.id}/members/ana`, { role: 'viewer' }));
    const alone = await upload('ana', '', 'platypus.txt');
    expect(await names('dan', 'platyp')).toEqual([]);
    await json(
      await call('ana', 'PUT', `/api/files/${alone.id}/shares/workspaces/${dansTeam.id}`, { role: 'viewer' }),
      201,
    );
    expect((await search('dan', { q: 'platyp' })).items).toEqual([
      expect.objectContaining({ id: alone.id, location: expect.objectContaining({ folderId: null, path: [] }) }),
    ]);
    // Revoking the share hides it again.
    await json(await call('ana', 'DELETE', `/api/files/${alone.id}/shares/workspaces/${dansTeam.id}`));
    expect(await names('dan', 'platyp')).toEqual([]);
  });

  it('follows renames, moves, trash, restores and deletes of files and folders (every write path, cascades included)', async () => {
    const box = await folder('ben', { name: 'Echidna box' });
    const file = await upload('ben', `?folderId=${box.id}`, 'echidna-old.txt');
    expect((await names('ben', 'echidna')).sort()).toEqual(['Echidna box', 'echidna-old.txt']);
    await json(await call('ben', 'PATCH', `/api/files/${file.id}`, { fileName: 'numbat-new.txt' }));
    expect(await names('ben', 'echidna')).toEqual(['Echidna box']);
    expect(await names('ben', 'numbat')).toEqual(['numbat-new.txt']);
    await json(await call('ben', 'PATCH', `/api/folders/${box.id}`, { name: 'Quokka box' }));
    expect(await names('ben', 'echidna')).toEqual([]);
    // A move changes the location the result shows.
    const other = await folder('ben', { name: 'Other place' });
    await json(await call('ben', 'PATCH', `/api/files/${file.id}`, { folderId: other.id }));
    expect((await search('ben', { q: 'numbat' })).items[0]?.location.folderId).toBe(other.id);
    // Deleting a folder deletes its content from the index too.
    await json(await call('ben', 'PATCH', `/api/files/${file.id}`, { folderId: box.id }));
    await json(await call('ben', 'DELETE', `/api/folders/${box.id}`));
    expect(await names('ben', 'numbat')).toEqual([]);
    expect(await names('ben', 'quokka')).toEqual([]);
    // Restored from the trash, the folder and what it held are found again; purged, never.
    await json(await call('ben', 'POST', `/api/trash/${box.id}/restore`));
    expect(await names('ben', 'numbat')).toEqual(['numbat-new.txt']);
    expect(await names('ben', 'quokka')).toEqual(['Quokka box']);
    await json(await call('ben', 'DELETE', `/api/folders/${box.id}`));
    await json(await call('ben', 'DELETE', `/api/trash/${box.id}`));
    expect(await names('ben', 'numbat')).toEqual([]);
    // The spec's delete route too.
    const gone = await upload('ben', '', 'bilby.txt');
    expect(await names('ben', 'bilby')).toEqual(['bilby.txt']);
    await json(await call('ben', 'DELETE', `/api/files/user/${gone.id}`));
    expect(await names('ben', 'bilby')).toEqual([]);
    await json(await call('ben', 'POST', `/api/trash/${gone.id}/restore`));
    expect(await names('ben', 'bilby')).toEqual(['bilby.txt']);
    // Deleting a workspace removes its files from the index (the search documents do not outlive their rows).
    const ws = await json<Workspace>(await call('ben', 'POST', '/api/workspaces', { name: 'Temp' }), 201);
    await upload('ben', `?workspaceId=${ws.id}`, 'dingo-temp.txt');
    expect(await names('ben', 'dingo')).toEqual(['dingo-temp.txt']);
    await json(await call('ben', 'DELETE', `/api/workspaces/${ws.id}`));
    expect(await names('ben', 'dingo')).toEqual([]);
    const { rows } = await server.app.database.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute()
      .then((n) => ({ rows: n }));
    expect(Number(rows[0]?.n)).toBeGreaterThan(0);
  });

  it('matches content text set by setContent, after name matches, with a snippet around the match', async () => {
    const scan = await upload('cleo', '', 'scan-0001.png', MAGIC.png);
    await upload('cleo', '', 'invoice list.txt');
    const text = `${'Lorem ipsum dolor sit amet. '.repeat(10)}Total due on this invoice: 420 EUR. ${'Thanks. '.repeat(20)}`;
    expect(await server.app.searchIndex.setContent(scan.id, text)).toBe(true);
    const items = (await search('cleo', { q: 'invoice' })).items;
    expect(items.map((i) => [i.name, i.matchedIn])).toEqual([
      ['invoice list.txt', 'name'],
      ['scan-0001.png', 'content'],
    ]);
    // One word in the name, the other in the content: a match in the content (both engines alike).
    expect((await search('cleo', { q: 'scan invoice' })).items.map((i) => [i.name, i.matchedIn])).toEqual([
      ['scan-0001.png', 'content'],
    ]);
    const hit = items[1] as SearchResult;
    expect(hit.snippet).toMatch(/^….*invoice: 420 EUR.*…$/);
    expect(hit.snippet.length).toBeLessThan(170);
    const mark = hit.highlights[0];
    expect(mark && hit.snippet.slice(mark.start, mark.end)).toBe('invoice');
    // Clearing the text removes the match; an unknown file answers false.
    expect(await server.app.searchIndex.setContent(scan.id, null)).toBe(true);
    expect(await names('cleo', 'invoice')).toEqual(['invoice list.txt']);
    expect(await server.app.searchIndex.setContent('no-such-file', 'x')).toBe(false);
  });

  it('pages through name matches, then content matches, without repeating or skipping one', async () => {
    const named: FileRecord[] = [];
    for (const n of [1, 2, 3]) named.push(await upload('cleo', '', `okapi-${n}.txt`));
    const inside: FileRecord[] = [];
    for (const n of [1, 2, 3]) {
      const file = await upload('cleo', '', `photo-${n}.png`, MAGIC.png);
      expect(await server.app.searchIndex.setContent(file.id, `An okapi in the zoo, number ${n}.`)).toBe(true);
      inside.push(file);
    }
    const seen: [string, string][] = [];
    let cursor: string | null = '';
    for (let page = 0; cursor !== null && page < 5; page += 1) {
      const result: SearchResponse = await search('cleo', { q: 'okapi', limit: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...result.items.map((i): [string, string] => [i.id, i.matchedIn]));
      cursor = result.nextCursor;
    }
    expect(cursor).toBeNull();
    // The third page starts past the last name match (the repository counts them to know where content begins).
    expect(seen.slice(0, 3).map(([, where]) => where)).toEqual(['name', 'name', 'name']);
    expect(new Set(seen.slice(0, 3).map(([id]) => id))).toEqual(new Set(named.map((f) => f.id)));
    expect(seen.slice(3).map(([, where]) => where)).toEqual(['content', 'content', 'content']);
    expect(new Set(seen.slice(3).map(([id]) => id))).toEqual(new Set(inside.map((f) => f.id)));
    expect(seen).toHaveLength(6);
  });

  it('finds content in the caller’s spaces and through shares only, follows a move to another space, pages in one order', async () => {
    // SQLite looks for content in two arms (the caller's own spaces by their FTS5 space token, then what shares
    // reach) and merges them; PostgreSQL in one. Both must give the same rows, in one order, without repeats.
    const inside = async (who: string, query: string, name: string) => {
      const file = await upload(who, query, name);
      expect(await server.app.searchIndex.setContent(file.id, `Field notes: a quokka was seen today (${name}).`)).toBe(
        true,
      );
      return file;
    };
    const ws = await json<Workspace>(await call('ben', 'POST', '/api/workspaces', { name: 'Quokka team' }), 201);
    await json(await call('ben', 'PUT', `/api/workspaces/${ws.id}/members/dan`, { role: 'viewer' }));
    const own = await inside('dan', '', 'dan-own.txt');
    const team = await inside('ben', `?folderId=${ws.rootFolderId}`, 'team-file.txt');
    const shared = await folder('cleo', { name: 'Cleo shared' });
    const inShared = await inside('cleo', `?folderId=${shared.id}`, 'cleo-in-folder.txt');
    const alone = await inside('cleo', '', 'cleo-alone.txt');
    const hidden = await inside('cleo', '', 'cleo-hidden.txt');
    const bensOwn = await inside('ben', '', 'ben-personal.txt');
    await json(await call('cleo', 'PUT', `/api/folders/${shared.id}/shares/dan`, { role: 'viewer' }), 201);
    await json(await call('cleo', 'PUT', `/api/files/${alone.id}/shares/dan`, { role: 'viewer' }), 201);

    const ids = async (who: string, extra: Record<string, string> = {}) =>
      (await search(who, { q: 'quokka', ...extra })).items.map((item) => item.id);
    const visible = [own.id, team.id, inShared.id, alone.id];
    expect(new Set(await ids('dan'))).toEqual(new Set(visible));
    expect(await ids('dan')).toHaveLength(4);
    expect(new Set(await ids('dan', { spaceId: 'shared' }))).toEqual(new Set([inShared.id, alone.id]));
    expect(await ids('dan', { spaceId: 'personal' })).toEqual([own.id]);
    expect(await ids('dan', { spaceId: ws.id })).toEqual([team.id]);
    expect(await ids('ana')).toEqual([]);
    expect(new Set(await ids('cleo'))).toEqual(new Set([inShared.id, alone.id, hidden.id]));

    // One order across the arms: pages of one never repeat or skip what a single page shows.
    const all = await ids('dan');
    const paged: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: SearchResponse = await search('dan', { q: 'quokka', limit: '1', ...(cursor ? { cursor } : {}) });
      paged.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(all);

    // Shares reaching too many folders for one FTS5 query are searched by a walk over everything: the same rows.
    const danActor = { kind: 'user', ...(await json<{ id: string }>(await call('dan', 'GET', '/api/me'))) } as never;
    const walking = createSearchRepository(server.app.database.db, dialect, { sharedTokensMax: 0 });
    const walked = await walking.search(danActor, ['quokka'], {}, { offset: 0, limit: 10 });
    expect(walked.map((row) => row.id)).toEqual(all);

    // A file moved into the workspace is found by its members by what is inside it, and no longer where it was.
    expect(await ids('dan', { spaceId: ws.id })).toEqual([team.id]);
    await json(await call('ben', 'PATCH', `/api/files/${bensOwn.id}`, { folderId: ws.rootFolderId }));
    expect(new Set(await ids('dan', { spaceId: ws.id }))).toEqual(new Set([team.id, bensOwn.id]));
    const [bensPersonal] = await json<{ rootFolderId: string }[]>(await call('ben', 'GET', '/api/spaces'));
    await json(await call('ben', 'PATCH', `/api/files/${bensOwn.id}`, { folderId: bensPersonal?.rootFolderId }));
    expect(await ids('dan', { spaceId: ws.id })).toEqual([team.id]);
    expect(await ids('ben', { spaceId: 'personal' })).toEqual([bensOwn.id]);
    // A file moved out of the shared folder is no longer found through the share; one moved in is.
    const [cleosPersonal] = await json<{ rootFolderId: string }[]>(await call('cleo', 'GET', '/api/spaces'));
    await json(await call('cleo', 'PATCH', `/api/files/${inShared.id}`, { folderId: cleosPersonal?.rootFolderId }));
    expect(await ids('dan', { spaceId: 'shared' })).toEqual([alone.id]);
    await json(await call('cleo', 'PATCH', `/api/files/${hidden.id}`, { folderId: shared.id }));
    expect(new Set(await ids('dan', { spaceId: 'shared' }))).toEqual(new Set([hidden.id, alone.id]));
  });

  it('filters by type, modified range and space; pages with a cursor', async () => {
    for (const [extension, bytes] of Object.entries(MAGIC)) await upload('dan', '', `gecko.${extension}`, bytes);
    await folder('dan', { name: 'gecko folder' });
    const byType = async (type: string) => names('dan', 'gecko', { type });
    expect(await byType('image')).toEqual(['gecko.png']);
    expect(await byType('audio')).toEqual(['gecko.wav']);
    expect(await byType('video')).toEqual(['gecko.mp4']);
    expect(await byType('document')).toEqual(['gecko.pdf']);
    expect(await byType('other')).toEqual(['gecko.bin']);
    expect(await names('dan', 'gecko')).toHaveLength(6);
    // Folder listings take the same filter (`?type=`): only files of that kind; the folders all the same.
    const [personal] = await json<{ rootFolderId: string }[]>(await call('dan', 'GET', '/api/spaces'));
    const listing = await json<{ folders: { name: string }[]; files: { fileName: string }[] }>(
      await call('dan', 'GET', `/api/folders/${personal?.rootFolderId ?? ''}?type=video`),
    );
    expect(listing.files.map((f) => f.fileName)).toEqual(['gecko.mp4']);
    expect(listing.folders.map((f) => f.name)).toEqual(['gecko folder']);
    expect((await call('dan', 'GET', `/api/folders/${personal?.rootFolderId ?? ''}?type=nope`)).status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    expect(await names('dan', 'gecko', { from: today, to: today })).toHaveLength(6);
    expect(await names('dan', 'gecko', { to: '2000-01-01' })).toEqual([]);
    expect(await names('dan', 'gecko', { from: '2999-01-01' })).toEqual([]);
    expect(await names('dan', 'gecko', { spaceId: 'personal' })).toHaveLength(6);
    expect(await names('dan', 'gecko', { spaceId: 'no-such-workspace' })).toEqual([]);

    const first = await search('dan', { q: 'gecko', limit: '4' });
    expect(first.items).toHaveLength(4);
    expect(first.nextCursor).not.toBeNull();
    const second = await search('dan', { q: 'gecko', limit: '4', cursor: first.nextCursor ?? '' });
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(6);
    // A cursor of another search is refused.
    const other = await call('dan', 'GET', `/api/search?q=other&cursor=${first.nextCursor ?? ''}`);
    expect(other.status).toBe(400);
  });

  it('answers bad input with a 400 or safe results, never a 5xx', async () => {
    const status = async (query: string) => (await call('ana', 'GET', `/api/search?${query}`)).status;
    expect(await status('q=')).toBe(400);
    expect(await status('q=%20%20')).toBe(400);
    expect(await status('')).toBe(400);
    expect(await status(`q=${'a'.repeat(201)}`)).toBe(400);
    expect(await status(`q=${'a'.repeat(200)}`)).toBe(200);
    expect(await status('q=x&type=spreadsheet')).toBe(400);
    expect(await status('q=x&from=yesterday')).toBe(400);
    expect(await status('q=x&from=2026-02-02&to=2026-01-01')).toBe(400);
    expect(await status('q=x&limit=0')).toBe(400);
    expect(await status('q=x&limit=51')).toBe(400);
    expect(await status('q=x&cursor=%%%')).toBe(400);
    const error = await readError(await call('ana', 'GET', '/api/search?q='));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(error.message).toContain('Type something to search for.');

    await upload('ana', '', 'near report (final).txt');
    for (const q of [
      '"',
      '*',
      '"report',
      'NEAR(report',
      'report*',
      'report OR x',
      'a:b',
      "'",
      '\\',
      '-',
      '^report',
      '{name}:report',
      'report AND',
      '(',
      ')',
      'name : x',
      '!!',
      '%',
      '_',
      '😀',
      '<->',
      '&',
      '|',
    ]) {
      const response = await call('ana', 'GET', `/api/search?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(200);
      const body = (await response.json()) as SearchResponse;
      expect(Array.isArray(body.items)).toBe(true);
    }
    // Operators are just words: "NEAR(report" finds the file whose name has both words.
    expect(await names('ana', 'NEAR(report')).toEqual(['near report (final).txt']);
    expect(await names('ana', '"report final"')).toEqual(['near report (final).txt']);
    // Unsigned callers get 401.
    expect((await server.fetch('/api/search?q=report')).status).toBe(401);
  });
});
