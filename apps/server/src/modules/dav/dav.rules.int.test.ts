import type { CreatedAppPassword, FileVersionList } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  expectJson,
  readError,
  sendJson,
  startTestServer,
  uploadFile,
  type TestServer,
} from '../../../test/helpers';

const LOCKINFO =
  '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * WebDAV locks honoured by every change in the app, `X-OC-Mtime`, and what a purge takes with it
 * (docs/PRODUCT.md#webdav), through real HTTP on both databases.
 */
describe.each(dialects())('WebDAV rules everywhere (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  /** A person signed in (cookie) with an app password (Basic). */
  async function person(ownerKey: string, name: string) {
    const cookie = await server.signInAs({ owner_key: ownerKey, name });
    const created = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'rules' }),
      201,
    );
    return {
      cookie,
      auth: `Basic ${b64(`${ownerKey}:${created.password}`)}`,
      base: `/remote.php/dav/files/${ownerKey}`,
    };
  }
  const dav = (auth: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    server.fetch(path, {
      method,
      headers: { authorization: auth, ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const lock = async (auth: string, path: string, depth = '0') => {
    const locked = await dav(auth, 'LOCK', path, { depth, timeout: 'Second-600' }, LOCKINFO);
    expect(locked.status).toBe(200);
    return locked.headers.get('lock-token') ?? '';
  };
  /** A workspace of `owner` with `editor` as an editor. */
  async function workspace(owner: { cookie: string }, name: string, editorKey: string) {
    const ws = await expectJson<{ id: string }>(
      sendJson(server, owner.cookie, 'POST', '/api/workspaces', { name }),
      201,
    );
    await expectJson(
      sendJson(server, owner.cookie, 'PUT', `/api/workspaces/${ws.id}/members/${editorKey}`, { role: 'editor' }),
    );
    return ws;
  }
  const expectLocked = async (response: Response, name: string, holder: string, path: string) => {
    expect(response.status).toBe(423);
    const error = await readError(response);
    expect(error.code).toBe('LOCKED');
    const message = `“${name}” is locked by ${holder}, who is editing it in another app. Try again later.`;
    expect(error.message).toBe(message);
    expect(error.details).toEqual([{ path, message }]);
    // The lock was taken for 600 s: it times out within that.
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
  };

  it('refuses replacing uploads, tus, version restores and folder operations on a locked file; its holder works on', async () => {
    const hal = await person('rules-hal', 'Hal Holder');
    const ivy = await person('rules-ivy', 'Ivy Editor');
    const ws = await workspace(hal, 'Rules', 'rules-ivy');
    const root = `${hal.base}/Workspaces/Rules`;
    const drafts = await dav(hal.auth, 'MKCOL', `${root}/Drafts`);
    const draftsId = drafts.headers.get('oc-fileid') ?? '';
    const deep = await dav(hal.auth, 'MKCOL', `${root}/Drafts/Deep`);
    const deepId = deep.headers.get('oc-fileid') ?? '';
    const put = await dav(hal.auth, 'PUT', `${root}/Drafts/Deep/plan.txt`, {}, 'plan one');
    expect(put.status).toBe(201);
    const fileId = put.headers.get('oc-fileid') ?? '';
    const token = await lock(hal.auth, `${root}/Drafts/Deep/plan.txt`);
    // The holder stores a second content over WebDAV (a version to restore), naming the lock.
    expect((await dav(hal.auth, 'PUT', `${root}/Drafts/Deep/plan.txt`, { if: `(${token})` }, 'plan two')).status).toBe(
      204,
    );

    // Multipart upload with Replace: refused before the body is stored.
    const query = `?workspaceId=${ws.id}&folderId=${deepId}&onConflict=replace`;
    await expectLocked(
      await uploadFile(server, ivy.cookie, query, 'plan.txt', 'stolen'),
      'plan.txt',
      'Hal Holder',
      `file:${fileId}`,
    );
    // A resumable (tus) upload that would replace it: refused at creation.
    const tus = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        cookie: ivy.cookie,
        'tus-resumable': '1.0.0',
        'upload-length': '6',
        'upload-metadata': `filename ${b64('plan.txt')},workspaceId ${b64(ws.id)},folderId ${b64(deepId)},onConflict ${b64('replace')}`,
      },
    });
    expect(tus.status).toBe(423);
    // A version restore.
    const versions = await expectJson<FileVersionList>(
      server.fetch(`/api/files/${fileId}/versions`, { headers: { cookie: ivy.cookie } }),
    );
    const versionId = versions.versions[0]?.id ?? '';
    await expectLocked(
      await sendJson(server, ivy.cookie, 'POST', `/api/files/${fileId}/versions/${versionId}/restore`),
      'plan.txt',
      'Hal Holder',
      `file:${fileId}`,
    );
    // Folder operations on folders holding it: rename, move, delete (to the trash).
    await expectLocked(
      await sendJson(server, ivy.cookie, 'PATCH', `/api/folders/${draftsId}`, { name: 'Renamed' }),
      'plan.txt',
      'Hal Holder',
      `file:${fileId}`,
    );
    const other = await dav(hal.auth, 'MKCOL', `${root}/Other`);
    await expectLocked(
      await sendJson(server, ivy.cookie, 'PATCH', `/api/folders/${deepId}`, {
        parentId: other.headers.get('oc-fileid'),
      }),
      'plan.txt',
      'Hal Holder',
      `file:${fileId}`,
    );
    await expectLocked(
      await sendJson(server, ivy.cookie, 'DELETE', `/api/folders/${draftsId}`),
      'plan.txt',
      'Hal Holder',
      `file:${fileId}`,
    );
    // Over WebDAV, someone else cannot either (their own tree names the same folder).
    expect((await dav(ivy.auth, 'DELETE', `${ivy.base}/Workspaces/Rules/Drafts`)).status).toBe(423);
    const content = await dav(ivy.auth, 'GET', `${ivy.base}/Workspaces/Rules/Drafts/Deep/plan.txt`);
    expect(await content.text()).toBe('plan two');

    // The holder works on: a replacing upload and a restore in the app, a move of the folder over WebDAV with the token.
    expect((await uploadFile(server, hal.cookie, query, 'plan.txt', 'plan three')).status).toBe(200);
    expect(
      (await sendJson(server, hal.cookie, 'POST', `/api/files/${fileId}/versions/${versionId}/restore`)).status,
    ).toBe(200);
    const moved = await dav(hal.auth, 'MOVE', `${root}/Drafts`, {
      destination: `${server.url}${root}/Drafts%202`,
      if: `<${server.url}${root}/Drafts/Deep/plan.txt> (${token})`,
    });
    expect(moved.status).toBe(201);
    // Unlocked, everyone may.
    expect((await dav(hal.auth, 'UNLOCK', `${root}/Drafts%202/Deep/plan.txt`, { 'lock-token': token })).status).toBe(
      204,
    );
    expect((await sendJson(server, ivy.cookie, 'DELETE', `/api/folders/${draftsId}`)).status).toBe(200);
  });

  it('reaches a file through a depth-infinity lock on a folder above it, in the app and over WebDAV', async () => {
    const kim = await person('rules-kim', 'Kim Keeper');
    const lee = await person('rules-lee', 'Lee Lamb');
    await workspace(kim, 'Deep locks', 'rules-lee');
    const root = `${kim.base}/Workspaces/Deep%20locks`;
    const top = await dav(kim.auth, 'MKCOL', `${root}/Top`);
    await dav(kim.auth, 'MKCOL', `${root}/Top/Middle`);
    const put = await dav(kim.auth, 'PUT', `${root}/Top/Middle/note.txt`, {}, 'note');
    const fileId = put.headers.get('oc-fileid') ?? '';
    const token = await lock(kim.auth, `${root}/Top`, 'infinity');
    await expectLocked(
      await sendJson(server, lee.cookie, 'PATCH', `/api/files/${fileId}`, { fileName: 'mine.txt' }),
      'Top',
      'Kim Keeper',
      `folder:${top.headers.get('oc-fileid')}`,
    );
    expect((await sendJson(server, lee.cookie, 'DELETE', `/api/files/user/${fileId}`)).status).toBe(423);
    expect((await sendJson(server, kim.cookie, 'PATCH', `/api/files/${fileId}`, { fileName: 'kept.txt' })).status).toBe(
      200,
    );
    expect((await dav(kim.auth, 'UNLOCK', `${root}/Top`, { 'lock-token': token })).status).toBe(204);
    expect((await sendJson(server, lee.cookie, 'DELETE', `/api/files/user/${fileId}`)).status).toBe(200);
  });

  it('keeps the modification time a client declares with X-OC-Mtime', async () => {
    const max = await person('rules-max', 'Max');
    const path = `${max.base}/Personal/old photo.jpg`;
    const put = await dav(max.auth, 'PUT', path, { 'x-oc-mtime': '1000000000' }, 'pixels');
    expect(put.status).toBe(201);
    expect(put.headers.get('x-oc-mtime')).toBe('accepted');
    const propfind = async () =>
      (
        await dav(
          max.auth,
          'PROPFIND',
          path,
          { depth: '0' },
          '<d:propfind xmlns:d="DAV:"><d:prop><d:getlastmodified/></d:prop></d:propfind>',
        )
      ).text();
    expect(await propfind()).toContain('<d:getlastmodified>Sun, 09 Sep 2001 01:46:40 GMT</d:getlastmodified>');
    // The listing of its folder says the same.
    const listing = await (await dav(max.auth, 'PROPFIND', `${max.base}/Personal/`, { depth: '1' })).text();
    expect(listing).toContain('Sun, 09 Sep 2001 01:46:40 GMT');
    // A new content without one: the time it was stored; a malformed header is ignored (no "accepted").
    const again = await dav(max.auth, 'PUT', path, { 'x-oc-mtime': 'yesterday' }, 'pixels 2');
    expect(again.status).toBe(204);
    expect(again.headers.get('x-oc-mtime')).toBeNull();
    expect(await propfind()).not.toContain('2001');
  });

  it('forgets locks and dead properties of what is purged: an emptied trash, the purge job, a deleted workspace', async () => {
    const nia = await person('rules-nia', 'Nia');
    const { db } = server.app.database;
    const proppatch = (path: string) =>
      dav(
        nia.auth,
        'PROPPATCH',
        path,
        {},
        '<d:propertyupdate xmlns:d="DAV:" xmlns:x="urn:x"><d:set><d:prop><x:color>red</x:color></d:prop></d:set></d:propertyupdate>',
      );
    const rowsOf = async (ids: string[]) => ({
      locks: (await db.selectFrom('dav_locks').select('resource_id').where('resource_id', 'in', ids).execute()).length,
      props: (await db.selectFrom('dav_properties').select('resource_id').where('resource_id', 'in', ids).execute())
        .length,
    });
    /** A folder with a file in it at `dir`, both with a dead property and a lock; answers their ids. */
    async function marked(dir: string): Promise<string[]> {
      const folder = await dav(nia.auth, 'MKCOL', dir);
      const file = await dav(nia.auth, 'PUT', `${dir}/a.txt`, {}, 'a');
      for (const path of [dir, `${dir}/a.txt`]) expect((await proppatch(path)).status).toBe(207);
      await lock(nia.auth, `${dir}/a.txt`);
      await lock(nia.auth, dir);
      const ids = [folder.headers.get('oc-fileid') ?? '', file.headers.get('oc-fileid') ?? ''];
      expect(await rowsOf(ids)).toEqual({ locks: 2, props: 2 });
      return ids;
    }

    // Emptying the trash (the holder may delete what they lock).
    const emptied = await marked(`${nia.base}/Personal/Emptied`);
    expect((await sendJson(server, nia.cookie, 'DELETE', `/api/folders/${emptied[0]}`)).status).toBe(200);
    expect(await rowsOf(emptied)).toEqual({ locks: 2, props: 2 });
    expect((await sendJson(server, nia.cookie, 'DELETE', '/api/trash')).status).toBe(200);
    expect(await rowsOf(emptied)).toEqual({ locks: 0, props: 0 });

    // The trash.purge job, a file on its own.
    const expired = await marked(`${nia.base}/Personal/Expired`);
    const fileId = expired[1] ?? '';
    expect((await sendJson(server, nia.cookie, 'DELETE', `/api/files/user/${fileId}`)).status).toBe(200);
    await db
      .updateTable('files')
      .set({ trashed_at: new Date(Date.now() - 365 * 24 * 3600 * 1000).toISOString() })
      .where('id', '=', fileId)
      .execute();
    await server.app.scheduler.runNow('trash.purge');
    expect(await rowsOf([fileId])).toEqual({ locks: 0, props: 0 });
    expect(await rowsOf([expired[0] ?? ''])).toEqual({ locks: 1, props: 1 });

    // A deleted workspace.
    const ws = await expectJson<{ id: string }>(
      sendJson(server, nia.cookie, 'POST', '/api/workspaces', { name: 'Gone soon' }),
      201,
    );
    const inWorkspace = await marked(`${nia.base}/Workspaces/Gone%20soon/Inside`);
    expect((await sendJson(server, nia.cookie, 'DELETE', `/api/workspaces/${ws.id}`)).status).toBe(200);
    expect(await rowsOf(inWorkspace)).toEqual({ locks: 0, props: 0 });
  });
});
