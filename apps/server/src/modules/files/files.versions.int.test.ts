import type { FileRecord, FileVersionList, Folder, UserFileStats, Workspace } from '@atrium/contracts';
import { nameTakenMessage } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (value: string) => Buffer.from(value).toString('base64');

/**
 * Versions (docs/PRODUCT.md#trash-and-versions): an upload of a taken name replaces the file's content when asked
 * (`?onConflict=replace`, same id, the old content kept as a version), makes `name (1)` by default and answers 409 with
 * `fail`; versions are listed, downloaded and restored; the newest FILE_VERSIONS_KEPT stay; viewers cannot replace or
 * restore.
 */
describe.each(dialects())('file versions (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { FILE_VERSIONS_KEPT: '2' } });
    for (const key of ['olga', 'vic', 'nina']) {
      cookies[key] = await server.signInAs({ owner_key: key, name: key[0]?.toUpperCase() + key.slice(1) });
    }
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  const { call, json, upload } = callsAs(() => server, cookies);
  const text = async (who: string, url: string, headers: Record<string, string> = {}) => {
    const response = await server.fetch(url, { headers: { cookie: cookies[who] ?? '', ...headers } });
    return { status: response.status, body: await response.text() };
  };
  const versionsOf = async (who: string, id: string) =>
    json<FileVersionList>(await call(who, 'GET', `/api/files/${id}/versions`));
  const blobCount = async () =>
    (await server.app.database.db.selectFrom('file_versions').select('blob_key').execute()).length;

  it('replaces a taken name as a new version of the same file; renames by default; fail answers 409', async () => {
    const folder = await json<Folder>(await call('olga', 'POST', '/api/folders', { name: 'Drafts' }), 201);
    const first = await json<FileRecord>(await upload('olga', `?folderId=${folder.id}`, 'plan.txt', 'version one'));
    expect(await versionsOf('olga', first.id)).toEqual({ versions: [], kept: 2 });

    const replaced = await json<FileRecord>(
      await upload('olga', `?folderId=${folder.id}&onConflict=replace`, 'PLAN.txt', 'version two!'),
    );
    expect(replaced).toMatchObject({ id: first.id, fileName: 'plan.txt', size: 12 });
    expect((await text('olga', `/api/files/download/${first.id}`)).body).toBe('version two!');
    const { versions } = await versionsOf('olga', first.id);
    expect(versions).toEqual([
      {
        id: expect.any(String),
        size: 11,
        contentType: 'text/plain',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        uploadedBy: { id: expect.any(String), name: 'Olga' },
        createdAt: first.uploadDate,
      },
    ]);
    const old = versions[0]?.id ?? '';
    const content = await server.fetch(`/api/files/${first.id}/versions/${old}/content`, {
      headers: { cookie: cookies.olga ?? '', range: 'bytes=0-6' },
    });
    expect(content.status).toBe(206);
    expect(await content.text()).toBe('version');
    expect(content.headers.get('content-disposition')).toContain('plan.txt');
    expect(content.headers.get('etag')).toBe(`"${versions[0]?.sha256}"`);

    // The default keeps both, as before.
    const both = await json<FileRecord>(await upload('olga', `?folderId=${folder.id}`, 'plan.txt', 'a copy'));
    expect(both.fileName).toBe('plan (1).txt');
    expect(both.id).not.toBe(first.id);
    // fail: 409 in the JSON error shape, nothing stored.
    const before = await blobCount();
    const refused = await upload('olga', `?folderId=${folder.id}&onConflict=fail`, 'plan.txt', 'refused');
    expect(refused.status).toBe(409);
    expect(await readError(refused)).toMatchObject({ code: 'CONFLICT', message: nameTakenMessage('plan.txt') });
    const listing = await json<{ files: FileRecord[] }>(await call('olga', 'GET', `/api/folders/${folder.id}`));
    expect(listing.files.map((f) => f.fileName).sort()).toEqual(['plan (1).txt', 'plan.txt']);
    expect(await blobCount()).toBe(before);
    // A name not taken: fail and replace simply store the file.
    const fresh = await json<FileRecord>(
      await upload('olga', `?folderId=${folder.id}&onConflict=fail`, 'new.txt', 'n'),
    );
    expect(fresh.fileName).toBe('new.txt');
    expect((await upload('olga', `?folderId=${folder.id}&onConflict=never`, 'x.txt', 'x')).status).toBe(400);

    // Restore: the old content is current again (same id), the replaced one a version.
    const restored = await json<FileRecord>(
      await call('olga', 'POST', `/api/files/${first.id}/versions/${old}/restore`),
    );
    expect(restored).toMatchObject({ id: first.id, size: 11 });
    expect((await text('olga', `/api/files/download/${first.id}`)).body).toBe('version one');
    expect((await versionsOf('olga', first.id)).versions.map((v) => v.size)).toEqual([12]);
    expect((await call('olga', 'POST', `/api/files/${first.id}/versions/${old}/restore`)).status).toBe(404);

    // Versions count towards the quota and the stats.
    const stats = await json<UserFileStats>(await call('olga', 'GET', '/api/files/user-stats/olga'));
    expect(stats.versionBytes).toBe(12);
    // The admin's users screen counts them too: plan.txt (11) + its version (12) + plan (1).txt (6) + new.txt (1).
    const users = await json<{ userId: string; usedBytes: number }[]>(
      await call('admin', 'GET', '/api/admin/users?q=olga'),
    );
    expect(users.find((user) => user.userId === 'olga')?.usedBytes).toBe(30);
  });

  it('keeps the newest FILE_VERSIONS_KEPT versions, and purging the file removes them all', async () => {
    const file = await json<FileRecord>(await upload('olga', '', 'log.txt', 'v0'));
    for (const n of [1, 2, 3, 4]) await json(await upload('olga', '?onConflict=replace', 'log.txt', `v${n}`));
    expect((await text('olga', `/api/files/download/${file.id}`)).body).toBe('v4');
    const { versions } = await versionsOf('olga', file.id);
    expect(versions).toHaveLength(2);
    // Newest first: v3 then v2 (v0 and v1 went).
    const bodies = [];
    for (const v of versions) bodies.push((await text('olga', `/api/files/${file.id}/versions/${v.id}/content`)).body);
    expect(bodies).toEqual(['v3', 'v2']);
    const { db } = server.app.database;
    const keys = (await db.selectFrom('file_versions').select('blob_key').where('file_id', '=', file.id).execute()).map(
      (row) => row.blob_key,
    );
    expect(keys).toHaveLength(2);
    await json(await call('olga', 'DELETE', `/api/files/user/${file.id}`));
    // In the trash its versions are kept (and hidden with it).
    expect((await call('olga', 'GET', `/api/files/${file.id}/versions`)).status).toBe(404);
    await json(await call('olga', 'DELETE', `/api/trash/${file.id}`));
    expect(await db.selectFrom('file_versions').select('id').where('file_id', '=', file.id).execute()).toEqual([]);
    const { existsSync } = await import('node:fs');
    for (const key of keys) expect(existsSync(`${server.dataDir}/blobs/${key}`)).toBe(false);
  });

  it('lets workspace viewers list and download versions but not replace or restore; others get 404', async () => {
    const ws = await json<Workspace>(await call('olga', 'POST', '/api/workspaces', { name: 'Versions' }), 201);
    await json(await call('olga', 'PUT', `/api/workspaces/${ws.id}/members/vic`, { role: 'viewer' }));
    const file = await json<FileRecord>(await upload('olga', `?workspaceId=${ws.id}`, 'spec.md', '# one'));
    await json(await upload('olga', `?workspaceId=${ws.id}&onConflict=replace`, 'spec.md', '# two'));
    const [version] = (await versionsOf('vic', file.id)).versions;
    expect((await text('vic', `/api/files/${file.id}/versions/${version?.id}/content`)).body).toBe('# one');
    expect((await upload('vic', `?workspaceId=${ws.id}&onConflict=replace`, 'spec.md', '# viewer')).status).toBe(403);
    const refused = await call('vic', 'POST', `/api/files/${file.id}/versions/${version?.id}/restore`);
    expect(refused.status).toBe(403);
    for (const url of [`/api/files/${file.id}/versions`, `/api/files/${file.id}/versions/${version?.id}/content`]) {
      expect((await call('nina', 'GET', url)).status).toBe(404);
    }
    expect((await call('nina', 'POST', `/api/files/${file.id}/versions/${version?.id}/restore`)).status).toBe(404);
    expect((await text('olga', `/api/files/download/${file.id}`)).body).toBe('# two');
    expect((await call('olga', 'GET', `/api/files/${file.id}/versions/no-such-version/content`)).status).toBe(404);
  });

  it('takes onConflict on tus uploads: replace keeps the id, fail refuses at creation', async () => {
    const file = await json<FileRecord>(await upload('olga', '', 'big.bin', 'small first'));
    const create = (query: string) =>
      server.fetch(`/api/files/tus${query}`, {
        method: 'POST',
        headers: {
          ...TUS,
          cookie: cookies.olga ?? '',
          'upload-length': '9',
          'upload-metadata': `filename ${b64('big.bin')}`,
        },
      });
    const refused = await create('?onConflict=fail');
    expect(refused.status).toBe(409);
    const created = await create('?onConflict=replace');
    expect(created.status).toBe(201);
    const finished = await server.fetch(created.headers.get('location') ?? '', {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: cookies.olga ?? '',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'tus bytes',
    });
    expect(finished.status).toBe(204);
    expect(finished.headers.get('x-atrium-file-id')).toBe(file.id);
    expect((await text('olga', `/api/files/download/${file.id}`)).body).toBe('tus bytes');
    expect((await versionsOf('olga', file.id)).versions).toHaveLength(1);
  });
});
