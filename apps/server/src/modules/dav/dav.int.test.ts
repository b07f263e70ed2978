import { createHash } from 'node:crypto';
import type { CreatedAppPassword } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, rawRequest, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/** Basic credentials of a fresh app password of `ownerKey` (signed in as them). */
async function appPasswordOf(
  server: TestServer,
  ownerKey: string,
): Promise<{ auth: string; id: string; cookie: string }> {
  const cookie = await server.signInAs({ owner_key: ownerKey });
  const created = await expectJson<CreatedAppPassword>(
    sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'dav test' }),
    201,
  );
  return { auth: `Basic ${Buffer.from(`${ownerKey}:${created.password}`).toString('base64')}`, id: created.id, cookie };
}

/** The WebDAV tree (docs/PRODUCT.md#webdav) through real HTTP. */
describe.each(dialects())('WebDAV (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  const dav = (
    auth: string,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Buffer } = {},
  ) =>
    server.fetch(path, {
      method,
      headers: { authorization: auth, ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    });

  it('asks for Basic credentials and refuses wrong, revoked and other people’s', async () => {
    const { auth, id, cookie } = await appPasswordOf(server, 'dav-ann');
    const anonymous = await server.fetch('/remote.php/dav/files/dav-ann/', {
      method: 'PROPFIND',
      headers: { depth: '0' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Atrium"/);
    const wrong = `Basic ${Buffer.from('dav-ann:not-the-password').toString('base64')}`;
    expect((await dav(wrong, 'PROPFIND', '/remote.php/dav/files/dav-ann/', { headers: { depth: '0' } })).status).toBe(
      401,
    );
    expect((await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-ann/', { headers: { depth: '0' } })).status).toBe(
      207,
    );
    // Another person's path: refused.
    await server.signInAs({ owner_key: 'dav-bob' });
    expect((await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-bob/', { headers: { depth: '0' } })).status).toBe(
      403,
    );
    // The session cookie works on /dav/ only.
    const viaCookie = await server.fetch('/dav/', { method: 'PROPFIND', headers: { cookie, depth: '1' } });
    expect(viaCookie.status).toBe(207);
    expect(await viaCookie.text()).toContain('<d:href>/dav/Personal/</d:href>');
    const cookieOnRemote = await server.fetch('/remote.php/dav/files/dav-ann/', {
      method: 'PROPFIND',
      headers: { cookie, depth: '0' },
    });
    expect(cookieOnRemote.status).toBe(401);
    // Revoked: refused at once.
    await sendJson(server, cookie, 'DELETE', `/api/me/app-passwords/${id}`);
    expect((await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-ann/', { headers: { depth: '0' } })).status).toBe(
      401,
    );
  });

  it('stores, lists, reads, moves, copies and deletes files and folders', async () => {
    const { auth, cookie } = await appPasswordOf(server, 'dav-cat');
    const root = '/remote.php/dav/files/dav-cat/Personal';
    expect((await dav(auth, 'MKCOL', `${root}/Notes`)).status).toBe(201);
    expect((await dav(auth, 'MKCOL', `${root}/Notes`)).status).toBe(405);
    expect((await dav(auth, 'MKCOL', `${root}/Missing/Deeper`)).status).toBe(409);
    const put = await dav(auth, 'PUT', `${root}/Notes/h%C3%A9llo%20world.txt`, { body: 'hello dav' });
    expect(put.status).toBe(201);
    const etag = put.headers.get('etag');
    expect((await dav(auth, 'PUT', `${root}/Notes/empty.txt`, { body: '' })).status).toBe(201);
    const got = await dav(auth, 'GET', `${root}/Notes/h%C3%A9llo%20world.txt`);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello dav');
    expect(got.headers.get('etag')).toBe(etag);
    const range = await dav(auth, 'GET', `${root}/Notes/h%C3%A9llo%20world.txt`, { headers: { range: 'bytes=6-8' } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('dav');
    // A new version: a new ETag.
    expect((await dav(auth, 'PUT', `${root}/Notes/h%C3%A9llo%20world.txt`, { body: 'hello again' })).status).toBe(204);
    const listing = await dav(auth, 'PROPFIND', `${root}/Notes/`, { headers: { depth: '1' } });
    expect(listing.status).toBe(207);
    const xml = await listing.text();
    expect(xml).toContain('<d:href>/remote.php/dav/files/dav-cat/Personal/Notes/h%C3%A9llo%20world.txt</d:href>');
    expect(xml).toContain('<d:getcontentlength>11</d:getcontentlength>');
    expect(xml).toContain('<d:getcontentlength>0</d:getcontentlength>');
    expect(xml).not.toContain(etag ?? 'none');
    // The app sees the same file.
    const web = await sendJson(server, cookie, 'GET', '/api/files/user/dav-cat');
    expect(JSON.stringify(await web.json())).toContain('héllo world.txt');
    // MOVE, COPY, Overwrite: F.
    const dest = (path: string) => ({ destination: `${server.url}${root}/${path}` });
    expect((await dav(auth, 'MOVE', `${root}/Notes/empty.txt`, { headers: dest('Notes/renamed.txt') })).status).toBe(
      201,
    );
    expect((await dav(auth, 'COPY', `${root}/Notes/`, { headers: dest('Copy') })).status).toBe(201);
    expect(await (await dav(auth, 'GET', `${root}/Copy/h%C3%A9llo%20world.txt`)).text()).toBe('hello again');
    const refused = await dav(auth, 'COPY', `${root}/Notes/renamed.txt`, {
      headers: { ...dest('Copy/renamed.txt'), overwrite: 'F' },
    });
    expect(refused.status).toBe(412);
    expect((await dav(auth, 'COPY', `${root}/Notes/renamed.txt`, { headers: dest('Copy/renamed.txt') })).status).toBe(
      204,
    );
    // DELETE: to the trash.
    expect((await dav(auth, 'DELETE', `${root}/Copy/`)).status).toBe(204);
    expect((await dav(auth, 'PROPFIND', `${root}/Copy/`, { headers: { depth: '0' } })).status).toBe(404);
    const trash = await sendJson(server, cookie, 'GET', '/api/trash');
    expect(JSON.stringify(await trash.json())).toContain('Copy');
  });

  it('answers the Nextcloud properties, quota and SHA-256 checksums', async () => {
    const { auth } = await appPasswordOf(server, 'dav-eve');
    const root = '/remote.php/dav/files/dav-eve/Personal';
    expect((await dav(auth, 'PUT', `${root}/a.txt`, { body: 'abc' })).status).toBe(201);
    const body =
      '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">' +
      '<d:prop><oc:fileid/><oc:permissions/><oc:size/><oc:checksums/><nc:has-preview/><d:quota-available-bytes/><d:quota-used-bytes/><d:getetag/></d:prop></d:propfind>';
    const file = await (await dav(auth, 'PROPFIND', `${root}/a.txt`, { headers: { depth: '0' }, body })).text();
    expect(file).toContain(
      '<oc:checksum>SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad</oc:checksum>',
    );
    expect(file).toContain('<oc:size>3</oc:size>');
    expect(file).toContain('<nc:has-preview>false</nc:has-preview>');
    expect(file).toMatch(/<oc:fileid>[0-9a-f-]{36}<\/oc:fileid>/);
    const folder = await (await dav(auth, 'PROPFIND', `${root}/`, { headers: { depth: '0' }, body })).text();
    expect(folder).toMatch(/<d:quota-used-bytes>3<\/d:quota-used-bytes>/);
    expect(folder).toMatch(/<d:quota-available-bytes>\d+<\/d:quota-available-bytes>/);
  });

  it(
    'lists a folder of several look-up batches with every checksum and dead property, also through shares',
    {
      timeout: 180_000,
    },
    async () => {
      const { auth, cookie } = await appPasswordOf(server, 'dav-bulk');
      const reader = await appPasswordOf(server, 'dav-bulk-reader');
      const root = '/remote.php/dav/files/dav-bulk/Personal';
      const made = await dav(auth, 'MKCOL', `${root}/bulk/`);
      expect(made.status).toBe(201);
      // More children than one look-up batch of a PROPFIND (500), so the last, partial batch counts too.
      const COUNT = 520;
      const nameOf = (i: number) => `f-${String(i).padStart(3, '0')}.txt`;
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < COUNT; i = next++) {
            expect((await dav(auth, 'PUT', `${root}/bulk/${nameOf(i)}`, { body: `file ${i}` })).status).toBe(201);
          }
        }),
      );
      const colour =
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:x="urn:test"><d:set><d:prop><x:colour>blue</x:colour>' +
        '</d:prop></d:set></d:propertyupdate>';
      for (const i of [0, 519]) {
        expect((await dav(auth, 'PROPPATCH', `${root}/bulk/${nameOf(i)}`, { body: colour })).status).toBe(207);
      }
      const body =
        '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:x="urn:test">' +
        '<d:prop><d:getcontentlength/><oc:checksums/><x:colour/></d:prop></d:propfind>';
      /** The `<d:response>` of each file of a multistatus, by name. */
      const byName = (xml: string) =>
        new Map(
          xml
            .split('<d:response>')
            .slice(1)
            .flatMap((part) => {
              const name = /<d:href>[^<]*\/(f-\d{3}\.txt|alone\.txt)<\/d:href>/.exec(part)?.[1];
              return name ? [[name, part] as const] : [];
            }),
        );
      const listing = await dav(auth, 'PROPFIND', `${root}/bulk/`, { headers: { depth: '1' }, body });
      expect(listing.status).toBe(207);
      const files = byName(await listing.text());
      expect(files.size).toBe(COUNT);
      for (let i = 0; i < COUNT; i += 1) {
        expect(files.get(nameOf(i)), nameOf(i)).toContain(`<oc:checksum>SHA256:${sha(`file ${i}`)}</oc:checksum>`);
      }
      for (const i of [0, 519]) expect(files.get(nameOf(i))).toContain('xmlns:P="urn:test">blue</P:colour>');
      expect(files.get(nameOf(1))).toMatch(/<P:colour xmlns:P="urn:test"\/><\/d:prop><d:status>HTTP\/1.1 404/);

      // Through a share of the folder, and of a file shared alone (its folder is not shared): the same checksums.
      const folderId = made.headers.get('oc-fileid') ?? '';
      await expectJson(
        sendJson(server, cookie, 'PUT', `/api/folders/${folderId}/shares/dav-bulk-reader`, { role: 'viewer' }),
        201,
      );
      const alone = await dav(auth, 'PUT', `${root}/alone.txt`, { body: 'alone' });
      await expectJson(
        sendJson(server, cookie, 'PUT', `/api/files/${alone.headers.get('oc-fileid') ?? ''}/shares/dav-bulk-reader`, {
          role: 'viewer',
        }),
        201,
      );
      const readerRoot = '/remote.php/dav/files/dav-bulk-reader/Shared%20with%20me';
      const shared = byName(
        await (await dav(reader.auth, 'PROPFIND', `${readerRoot}/bulk/`, { headers: { depth: '1' }, body })).text(),
      );
      expect(shared.size).toBe(COUNT);
      expect(shared.get(nameOf(519))).toContain(`<oc:checksum>SHA256:${sha('file 519')}</oc:checksum>`);
      const top = byName(
        await (await dav(reader.auth, 'PROPFIND', `${readerRoot}/`, { headers: { depth: '1' }, body })).text(),
      );
      expect(top.get('alone.txt')).toContain(`<oc:checksum>SHA256:${sha('alone')}</oc:checksum>`);
    },
  );

  it('lists a folder of several pages: every entry once, in order, with its checksum', async () => {
    const { auth } = await appPasswordOf(server, 'dav-pages');
    const root = '/remote.php/dav/files/dav-pages/Personal';
    const made = await dav(auth, 'MKCOL', `${root}/paged/`);
    expect(made.status).toBe(201);
    for (const name of ['Sub B', 'sub a'])
      expect((await dav(auth, 'MKCOL', `${root}/paged/${name}/`)).status).toBe(201);
    // More files than two pages of the tree's listing (1,000 each), written as rows (their bytes are not read).
    const COUNT = 2_100;
    const now = '2026-11-29T00:00:00.000Z';
    const nameOf = (i: number) => `${i % 3 === 0 ? 'F' : 'f'}-${String((i * 7919) % COUNT).padStart(4, '0')}.txt`;
    const rows = Array.from({ length: COUNT + 1 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      owner_key: 'dav-pages',
      file_name: i === COUNT ? 'trashed.txt' : nameOf(i),
      name_key: i === COUNT ? 'trashed.txt' : nameOf(i).toLowerCase(),
      size: i,
      content_type: 'text/plain',
      sha256: i.toString(16).padStart(64, '0'),
      blob_key: `files/dav-pages-${i}`,
      upload_date: now,
      folder_id: made.headers.get('oc-fileid') ?? '',
      workspace_id: null,
      uploaded_by: null,
      trashed_at: i === COUNT ? now : null,
    }));
    for (let at = 0; at < rows.length; at += 500) {
      await server.app.database.db
        .insertInto('files')
        .values(rows.slice(at, at + 500))
        .execute();
    }
    const body =
      '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">' +
      '<d:prop><d:getcontentlength/><oc:checksums/></d:prop></d:propfind>';
    const listing = await dav(auth, 'PROPFIND', `${root}/paged/`, { headers: { depth: '1' }, body });
    expect(listing.status).toBe(207);
    const hrefs = [...(await listing.text()).matchAll(/<d:href>[^<]*\/paged\/([^<]*)<\/d:href>(.*?)<\/d:response>/g)];
    const names = hrefs.map((match) => decodeURIComponent(match[1] ?? ''));
    expect(names.slice(0, 3)).toEqual(['', 'sub a/', 'Sub B/']);
    const expected = rows
      .slice(0, COUNT)
      .sort((a, b) => (a.name_key < b.name_key ? -1 : 1))
      .map((row) => row.file_name);
    expect(names.slice(3)).toEqual(expected);
    const byName = new Map(hrefs.map((match) => [decodeURIComponent(match[1] ?? ''), match[2] ?? '']));
    for (const row of rows.slice(0, COUNT)) {
      expect(byName.get(row.file_name)).toContain(`<d:getcontentlength>${row.size}</d:getcontentlength>`);
      expect(byName.get(row.file_name)).toContain(`<oc:checksum>SHA256:${row.sha256}</oc:checksum>`);
    }
  });

  it('lists dead properties from the first PROPPATCH on, and none once the last is removed', async () => {
    // A server of its own: no dead property anywhere, so a listing starts by skipping their look-ups.
    const fresh = await startTestServer({ dialect });
    try {
      const cookie = await fresh.signInAs({ owner_key: 'dav-dee' });
      const created = await expectJson<CreatedAppPassword>(
        sendJson(fresh, cookie, 'POST', '/api/me/app-passwords', { name: 'dav test' }),
        201,
      );
      const auth = `Basic ${Buffer.from(`dav-dee:${created.password}`).toString('base64')}`;
      const call = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
        fresh.fetch(`/remote.php/dav/files/dav-dee/Personal/${path}`, {
          method,
          headers: { authorization: auth, ...init.headers },
          ...(init.body === undefined ? {} : { body: init.body }),
        });
      expect((await call('MKCOL', 'tagged/')).status).toBe(201);
      expect((await call('MKCOL', 'tagged/inner/')).status).toBe(201);
      for (const name of ['a.txt', 'b.txt', 'c.txt']) {
        expect((await call('PUT', `tagged/${name}`, { body: name })).status).toBe(201);
      }
      const patch = (action: 'set' | 'remove', value: string) =>
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:x="urn:test">' +
        `<d:${action}><d:prop><x:colour>${value}</x:colour></d:prop></d:${action}></d:propertyupdate>`;
      const list = async (body = '') => {
        const answer = await call('PROPFIND', 'tagged/', { headers: { depth: '1' }, body });
        expect(answer.status).toBe(207);
        return answer.text();
      };
      const asked =
        '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:test"><d:prop><d:displayname/><x:colour/>' +
        '</d:prop></d:propfind>';
      const before = { allprop: await list(), asked: await list(asked) };
      expect(before.allprop).not.toContain('urn:test');
      expect(before.asked.match(/<P:colour xmlns:P="urn:test"\/><\/d:prop><d:status>HTTP\/1.1 404/g)).toHaveLength(5);

      for (const [path, value] of [
        ['tagged/b.txt', 'blue'],
        ['tagged/inner/', 'green'],
        ['tagged/', 'red'],
      ] as const) {
        expect((await call('PROPPATCH', path, { body: patch('set', value) })).status).toBe(207);
      }
      const after = await list();
      const responseOf = (xml: string, href: string) =>
        xml
          .split('<d:response>')
          .find((part) => part.startsWith(`<d:href>/remote.php/dav/files/dav-dee/Personal/${href}</d:href>`));
      expect(responseOf(after, 'tagged/b.txt')).toContain(
        '<d:lockdiscovery/><P:colour xmlns:P="urn:test">blue</P:colour>',
      );
      expect(responseOf(after, 'tagged/inner/')).toContain('<P:colour xmlns:P="urn:test">green</P:colour>');
      expect(responseOf(after, 'tagged/')).toContain('<P:colour xmlns:P="urn:test">red</P:colour>');
      expect(responseOf(after, 'tagged/a.txt')).not.toContain('urn:test');
      expect(responseOf(await list(asked), 'tagged/b.txt')).toContain(
        '<d:displayname>b.txt</d:displayname><P:colour xmlns:P="urn:test">blue</P:colour></d:prop>',
      );

      for (const path of ['tagged/b.txt', 'tagged/inner/', 'tagged/']) {
        expect((await call('PROPPATCH', path, { body: patch('remove', '') })).status).toBe(207);
      }
      expect({ allprop: await list(), asked: await list(asked) }).toEqual(before);
    } finally {
      await fresh.close();
    }
  });

  it('counts wrong app passwords on the sign-in limit: 429 with Retry-After', async () => {
    const limited = await startTestServer({ dialect, env: { LOGIN_MAX_FAILURES_PER_USERNAME: '3' } });
    try {
      const { auth } = await appPasswordOf(limited, 'dav-fay');
      const wrong = `Basic ${Buffer.from('dav-fay:guess').toString('base64')}`;
      const send = (authorization: string) =>
        limited.fetch('/remote.php/dav/files/dav-fay/', { method: 'PROPFIND', headers: { authorization, depth: '0' } });
      for (let i = 0; i < 3; i += 1) expect((await send(wrong)).status).toBe(401);
      const refused = await send(auth);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('keeps nothing of a PUT cut off before its last byte', async () => {
    const { auth } = await appPasswordOf(server, 'dav-gil');
    const path = '/remote.php/dav/files/dav-gil/Personal/cut.bin';
    const exchange = await rawRequest(
      server,
      `PUT ${path} HTTP/1.1\nAuthorization: ${auth}\nContent-Length: 100000\n`,
      Buffer.alloc(50_000, 1),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    exchange.socket.destroy();
    await exchange.closed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await dav(auth, 'PROPFIND', path, { headers: { depth: '0' } });
    expect(after.status).toBe(404);
    const listing = await (
      await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-gil/Personal/', { headers: { depth: '1' } })
    ).text();
    expect(listing).not.toContain('cut.bin');
  });

  it('makes the app’s rename and delete of a file locked over WebDAV by someone else answer 423', async () => {
    const owner = await appPasswordOf(server, 'dav-hal');
    const editor = await appPasswordOf(server, 'dav-ivy');
    const ws = await expectJson<{ id: string }>(
      sendJson(server, owner.cookie, 'POST', '/api/workspaces', { name: 'Locks' }),
      201,
    );
    await expectJson(
      sendJson(server, owner.cookie, 'PUT', `/api/workspaces/${ws.id}/members/dav-ivy`, { role: 'editor' }),
    );
    const path = '/remote.php/dav/files/dav-hal/Workspaces/Locks/plan.txt';
    const put = await dav(owner.auth, 'PUT', path, { body: 'plan' });
    const fileId = put.headers.get('oc-fileid') ?? '';
    const locked = await dav(owner.auth, 'LOCK', path, {
      headers: { timeout: 'Second-600', 'content-type': 'application/xml' },
      body: '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>',
    });
    expect(locked.status).toBe(200);
    const token = locked.headers.get('lock-token') ?? '';
    const rename = (cookie: string, fileName: string) =>
      sendJson(server, cookie, 'PATCH', `/api/files/${fileId}`, { fileName });
    expect((await rename(editor.cookie, 'stolen.txt')).status).toBe(423);
    expect((await sendJson(server, editor.cookie, 'DELETE', `/api/files/user/${fileId}`)).status).toBe(423);
    // The lock holder works on in the app; once unlocked, everyone may.
    expect((await rename(owner.cookie, 'plan v2.txt')).status).toBe(200);
    const unlocked = await dav(owner.auth, 'UNLOCK', '/remote.php/dav/files/dav-hal/Workspaces/Locks/plan%20v2.txt', {
      headers: { 'lock-token': token },
    });
    expect(unlocked.status).toBe(204);
    expect((await rename(editor.cookie, 'plan v3.txt')).status).toBe(200);
  });

  it('refuses Depth infinity and malformed XML without a server error', async () => {
    const { auth } = await appPasswordOf(server, 'dav-dan');
    const infinite = await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-dan/', { headers: { depth: 'infinity' } });
    expect(infinite.status).toBe(403);
    expect(await infinite.text()).toContain('propfind-finite-depth');
    const bad = await dav(auth, 'PROPFIND', '/remote.php/dav/files/dav-dan/', {
      headers: { depth: '0' },
      body: '<d:propfind xmlns:d="DAV:"><d:prop>',
    });
    expect(bad.status).toBe(400);
  });
});
