import { randomBytes } from 'node:crypto';
import type { FileRecord, Folder, Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';
import { unzip } from '../../../test/zip';

/**
 * `POST /api/files/archive` (docs/PRODUCT.md#file-screens) on both databases: chosen files and folders as one streamed
 * zip with the same bytes, safe and unique names; every item authorised (404 and nothing streamed otherwise); bad
 * bodies 400.
 */
describe.each(dialects())('bulk download as zip (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(cookies, await signInPeople(server, ['zoe', 'yan', 'xia']));
  });
  afterAll(async () => server?.close());

  const { call, json, upload: send } = callsAs(() => server, cookies);
  const upload = async (who: string, query: string, name: string, bytes: Buffer) =>
    json<FileRecord>(await send(who, query, name, bytes));
  const folder = (who: string, body: { name: string; parentId?: string; workspaceId?: string }) =>
    call(who, 'POST', '/api/folders', body).then((r) => json<Folder>(r, 201));
  const archive = (who: string, body: unknown) => call(who, 'POST', '/api/files/archive', body);

  it('zips chosen files and folders (recursively) with the same bytes and unique, safe names', async () => {
    const bytes = {
      a: randomBytes(70_000),
      b: randomBytes(1234),
      deep: randomBytes(300_000),
      other: randomBytes(10),
      odd: Buffer.from('colon'),
    };
    const project = await folder('zoe', { name: 'Project' });
    const sub = await folder('zoe', { name: 'Sub', parentId: project.id });
    await folder('zoe', { name: 'Empty', parentId: project.id });
    await upload('zoe', `?folderId=${project.id}`, 'a.bin', bytes.a);
    await upload('zoe', `?folderId=${sub.id}`, 'deep.bin', bytes.deep);
    const other = await folder('zoe', { name: 'Other' });
    // Two chosen files of one name (from two folders), and one whose name holds a colon.
    const b1 = await upload('zoe', '', 'b.bin', bytes.b);
    const b2 = await upload('zoe', `?folderId=${other.id}`, 'b.bin', bytes.other);
    const odd = await upload('zoe', `?folderId=${other.id}`, 'C:odd.txt', bytes.odd);

    const response = await archive('zoe', { folderIds: [project.id], fileIds: [b1.id, b2.id, odd.id] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('files.zip');
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(body.length));
    const entries = await unzip(body);
    expect([...entries.keys()].sort()).toEqual(
      [
        'C_odd.txt',
        'Project/',
        'Project/Empty/',
        'Project/Sub/',
        'Project/Sub/deep.bin',
        'Project/a.bin',
        'b (1).bin',
        'b.bin',
      ].sort(),
    );
    expect(entries.get('Project/a.bin')?.equals(bytes.a)).toBe(true);
    expect(entries.get('Project/Sub/deep.bin')?.equals(bytes.deep)).toBe(true);
    expect(entries.get('b.bin')?.equals(bytes.b)).toBe(true);
    expect(entries.get('b (1).bin')?.equals(bytes.other)).toBe(true);
    expect(entries.get('C_odd.txt')?.toString()).toBe('colon');

    // One folder alone: named after it. Duplicated ids count once.
    const single = await archive('zoe', { folderIds: [sub.id, sub.id] });
    expect(single.headers.get('content-disposition')).toContain('Sub.zip');
    expect([...(await unzip(Buffer.from(await single.arrayBuffer()))).keys()]).toEqual(['Sub/', 'Sub/deep.bin']);
  });

  it('names a zip of several items after the folder holding them (a space root: the space)', async () => {
    const disposition = async (body: unknown) => {
      const response = await archive('zoe', body);
      expect(response.status).toBe(200);
      return response.headers.get('content-disposition');
    };
    const reports = await folder('zoe', { name: 'Reports' });
    const q1 = await upload('zoe', `?folderId=${reports.id}`, 'q1.txt', Buffer.from('q1'));
    const q2 = await upload('zoe', `?folderId=${reports.id}`, 'q2.txt', Buffer.from('q2'));
    const drafts = await folder('zoe', { name: 'Drafts', parentId: reports.id });
    expect(await disposition({ fileIds: [q1.id, q2.id], folderIds: [drafts.id] })).toContain('Reports.zip');
    // At the personal root: the space's name; in a workspace's root: the workspace's.
    const top = await upload('zoe', '', 'top.txt', Buffer.from('top'));
    expect(await disposition({ fileIds: [top.id], folderIds: [reports.id] })).toContain('Personal.zip');
    const ws = await json<Workspace>(await call('zoe', 'POST', '/api/workspaces', { name: 'Studio' }), 201);
    const a = await upload('zoe', `?workspaceId=${ws.id}`, 'a.txt', Buffer.from('a'));
    const b = await upload('zoe', `?workspaceId=${ws.id}`, 'b.txt', Buffer.from('b'));
    expect(await disposition({ fileIds: [a.id, b.id] })).toContain('Studio.zip');
    // Items of several folders: files.zip.
    expect(await disposition({ fileIds: [q1.id, top.id] })).toContain('files.zip');
    // A recipient of two files shared one by one cannot read their folder: files.zip, not its name.
    for (const id of [q1.id, q2.id]) {
      await json(await call('zoe', 'PUT', `/api/files/${id}/shares/xia`, { role: 'viewer' }), 201);
    }
    const shared = await archive('xia', { fileIds: [q1.id, q2.id] });
    expect(shared.status).toBe(200);
    expect(shared.headers.get('content-disposition')).toContain('files.zip');
  });

  it('authorises every item: 404 for what the caller cannot read, and nothing is streamed', async () => {
    const ws = await json<Workspace>(await call('zoe', 'POST', '/api/workspaces', { name: 'Zip team' }), 201);
    await json(await call('zoe', 'PUT', `/api/workspaces/${ws.id}/members/yan`, { role: 'viewer' }));
    const team = await folder('zoe', { name: 'Team', workspaceId: ws.id });
    const teamFile = await upload('zoe', `?folderId=${team.id}`, 'plan.txt', Buffer.from('plan'));
    const mine = await upload('zoe', '', 'mine.txt', Buffer.from('mine'));
    const lent = await folder('zoe', { name: 'Lent' });
    const lentFile = await upload('zoe', `?folderId=${lent.id}`, 'lent.txt', Buffer.from('lent'));
    await json(await call('zoe', 'PUT', `/api/folders/${lent.id}/shares/xia`, { role: 'viewer' }), 201);

    // A viewer of the workspace zips its folder; a personal file of the owner in the same request → 404.
    expect((await archive('yan', { folderIds: [team.id] })).status).toBe(200);
    const mixed = await archive('yan', { folderIds: [team.id], fileIds: [mine.id] });
    expect(mixed.status).toBe(404);
    expect(mixed.headers.get('content-type')).toContain('application/json');
    expect(await readError(mixed)).toMatchObject({ code: 'FILE_NOT_FOUND' });
    // A non-member: 404 for the workspace's folder and file.
    expect(await readError(await archive('xia', { folderIds: [team.id] }))).toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    expect((await archive('xia', { fileIds: [teamFile.id] })).status).toBe(404);
    // The share recipient zips the shared folder, or a file inside it; not what is beside it.
    const shared = await archive('xia', { folderIds: [lent.id] });
    expect(shared.status).toBe(200);
    expect((await unzip(Buffer.from(await shared.arrayBuffer()))).get('Lent/lent.txt')?.toString()).toBe('lent');
    expect((await archive('xia', { fileIds: [lentFile.id] })).status).toBe(200);
    expect((await archive('xia', { fileIds: [mine.id] })).status).toBe(404);
    expect((await archive('xia', { fileIds: ['no-such-file'] })).status).toBe(404);
    // Signed out: 401.
    expect((await server.fetch('/api/files/archive', { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('zips a tree whose paths exceed 65,535 bytes, names shortened to fit (archive and a folder link)', async () => {
    // 65 levels of the longest folder name (255 characters of 4 UTF-8 bytes): 66,365 bytes down to the deepest.
    const name = (level: number) => `${level}${'😀'.repeat(255 - String(level).length)}`;
    const top = await folder('yan', { name: name(0) });
    let deepest = top;
    for (let level = 1; level < 65; level++) deepest = await folder('yan', { name: name(level), parentId: deepest.id });
    await upload('yan', `?folderId=${deepest.id}`, `${'😀'.repeat(250)}.txt`, Buffer.from('at the bottom'));
    await upload('yan', `?folderId=${deepest.id}`, 'short.txt', Buffer.from('short'));

    const check = async (response: Response) => {
      expect(response.status).toBe(200);
      const entries = await unzip(Buffer.from(await response.arrayBuffer()));
      for (const path of entries.keys()) expect(Buffer.byteLength(path)).toBeLessThanOrEqual(0xffff);
      const files = [...entries].filter(([path]) => !path.endsWith('/'));
      expect(files.map(([, bytes]) => bytes.toString()).sort()).toEqual(['at the bottom', 'short']);
      for (const [path] of files) expect(path.split('/').length).toBeGreaterThanOrEqual(65);
      expect(files.find(([, bytes]) => bytes.toString() === 'at the bottom')?.[0]).toMatch(/\/(😀)+\.txt$/u);
      expect(files.find(([, bytes]) => bytes.toString() === 'short')?.[0]).toMatch(/\/short\.txt$/);
    };
    await check(await archive('yan', { folderIds: [top.id] }));
    const link = await json<{ token: string }>(await call('yan', 'POST', '/api/links', { folderId: top.id }), 201);
    await check(await server.fetch(`/api/public/links/${link.token}/zip`));
  });

  it('answers bad bodies with 400', async () => {
    for (const body of [{}, { fileIds: [] }, { fileIds: 'x' }, { fileIds: [''] }, { folderIds: [1] }]) {
      const response = await archive('zoe', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const many = Array.from({ length: 1001 }, (_, i) => `f${i}`);
    expect((await archive('zoe', { fileIds: many })).status).toBe(400);
    const error = await readError(await archive('zoe', { fileIds: [], folderIds: [] }));
    expect(error.message).toContain('Choose at least one file or folder to download.');
  });
});
