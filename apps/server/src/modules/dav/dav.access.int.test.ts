import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';
import type { CreatedAppPassword } from '@atrium/contracts';

/** Basic credentials of a fresh app password of `ownerKey`, with its id and a session cookie of theirs. */
async function appPasswordOf(server: TestServer, ownerKey: string) {
  const cookie = await server.signInAs({ owner_key: ownerKey });
  const created = await expectJson<CreatedAppPassword>(
    sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'dav access' }),
    201,
  );
  return { auth: `Basic ${Buffer.from(`${ownerKey}:${created.password}`).toString('base64')}`, id: created.id, cookie };
}

type Caller = 'anonymous' | 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'revoked';
const CALLERS: Caller[] = ['anonymous', 'owner', 'editor', 'viewer', 'nonMember', 'recipient', 'revoked'];

/**
 * Who may do what over WebDAV (docs/PRODUCT.md#webdav): every method on a workspace file and folder, through both
 * path forms, as anonymous, the workspace's owner, editor and viewer, a non-member, a share recipient and a revoked
 * app password — the same rules as the app's.
 */
describe.each(dialects())('WebDAV access (%s)', (dialect) => {
  let server: TestServer;
  const auth = {} as Record<Caller, { header: string | undefined; key: string }>;
  beforeAll(async () => {
    // The revoked password's failures count on the sign-in counters of 127.0.0.1: room for this many calls.
    server = await startTestServer({
      dialect,
      env: { LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_MAX_FAILURES_PER_USERNAME: '1000' },
    });
    for (const who of CALLERS) {
      const key = `dava-${who}`;
      if (who === 'anonymous') {
        auth[who] = { header: undefined, key: 'dava-owner' };
        continue;
      }
      const made = await appPasswordOf(server, key);
      if (who === 'revoked') await sendJson(server, made.cookie, 'DELETE', `/api/me/app-passwords/${made.id}`);
      auth[who] = { header: made.auth, key };
    }
    const owner = await server.signInAs({ owner_key: 'dava-owner' });
    const ws = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/workspaces', { name: 'DavTeam' }),
      201,
    );
    for (const [who, role] of [
      ['editor', 'editor'],
      ['viewer', 'viewer'],
    ] as const) {
      await expectJson(sendJson(server, owner, 'PUT', `/api/workspaces/${ws.id}/members/dava-${who}`, { role }));
    }
    const shared = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/folders', { name: 'ShareMe' }),
      201,
    );
    await expectJson(
      sendJson(server, owner, 'PUT', `/api/folders/${shared.id}/shares/dava-recipient`, { role: 'viewer' }),
      201,
    );
    const put = (path: string, body: string) =>
      server.fetch(`/remote.php/dav/files/dava-owner/${path}`, {
        method: 'PUT',
        headers: { authorization: auth.owner.header ?? '' },
        body,
      });
    expect((await put('Workspaces/DavTeam/doc.txt', 'team doc')).status).toBe(201);
    expect((await put('Personal/ShareMe/s.txt', 'shared doc')).status).toBe(201);
  });
  afterAll(async () => server?.close());

  const call = (who: Caller, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    server.fetch(`/remote.php/dav/files/${auth[who].key}/${path}`, {
      method,
      headers: { ...(auth[who].header ? { authorization: auth[who].header } : {}), ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const destination = (who: Caller, path: string) => ({
    destination: `${server.url}/remote.php/dav/files/${auth[who].key}/${path}`,
  });

  // Expected status per caller: anonymous, owner, editor, viewer, non-member, recipient, revoked.
  const rows: [string, (who: Caller) => Promise<Response>, number[]][] = [
    [
      'PROPFIND file',
      (w) => call(w, 'PROPFIND', 'Workspaces/DavTeam/doc.txt', { depth: '0' }),
      [401, 207, 207, 207, 404, 404, 401],
    ],
    [
      'PROPFIND folder',
      (w) => call(w, 'PROPFIND', 'Workspaces/DavTeam/', { depth: '1' }),
      [401, 207, 207, 207, 404, 404, 401],
    ],
    ['GET', (w) => call(w, 'GET', 'Workspaces/DavTeam/doc.txt'), [401, 200, 200, 200, 404, 404, 401]],
    ['HEAD', (w) => call(w, 'HEAD', 'Workspaces/DavTeam/doc.txt'), [401, 200, 200, 200, 404, 404, 401]],
    ['PUT new', (w) => call(w, 'PUT', `Workspaces/DavTeam/new-${w}.txt`, {}, 'x'), [401, 201, 201, 403, 409, 409, 401]],
    [
      'PUT replace',
      (w) => call(w, 'PUT', 'Workspaces/DavTeam/doc.txt', {}, 'team doc'),
      [401, 204, 204, 403, 409, 409, 401],
    ],
    ['MKCOL', (w) => call(w, 'MKCOL', `Workspaces/DavTeam/dir-${w}`), [401, 201, 201, 403, 409, 409, 401]],
    [
      'PROPPATCH',
      (w) =>
        call(
          w,
          'PROPPATCH',
          'Workspaces/DavTeam/doc.txt',
          { 'content-type': 'application/xml' },
          '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><x:k xmlns:x="urn:x">v</x:k></d:prop></d:set></d:propertyupdate>',
        ),
      [401, 207, 207, 403, 404, 404, 401],
    ],
    [
      'COPY',
      (w) => call(w, 'COPY', 'Workspaces/DavTeam/doc.txt', destination(w, `Workspaces/DavTeam/copy-${w}.txt`)),
      [401, 201, 201, 403, 404, 404, 401],
    ],
    [
      'MOVE',
      (w) => call(w, 'MOVE', `Workspaces/DavTeam/copy-${w}.txt`, destination(w, `Workspaces/DavTeam/moved-${w}.txt`)),
      [401, 201, 201, 404, 404, 404, 401],
    ],
    [
      'MOVE doc, then back',
      async (w) => {
        const moved = await call(
          w,
          'MOVE',
          'Workspaces/DavTeam/doc.txt',
          destination(w, `Workspaces/DavTeam/gone-${w}.txt`),
        );
        if (moved.status === 201) {
          const back = await call(
            w,
            'MOVE',
            `Workspaces/DavTeam/gone-${w}.txt`,
            destination(w, 'Workspaces/DavTeam/doc.txt'),
          );
          expect(back.status).toBe(201);
        }
        return moved;
      },
      [401, 201, 201, 403, 404, 404, 401],
    ],
    ['DELETE', (w) => call(w, 'DELETE', `Workspaces/DavTeam/moved-${w}.txt`), [401, 204, 204, 404, 404, 404, 401]],
    ['DELETE doc', (w) => call(w, 'DELETE', 'Workspaces/DavTeam/doc.txt'), [401, 404, 204, 403, 404, 404, 401]],
    ['GET shared', (w) => call(w, 'GET', 'Shared with me/ShareMe/s.txt'), [401, 404, 404, 404, 404, 200, 401]],
    [
      'PUT into shared (viewer)',
      (w) => call(w, 'PUT', `Shared with me/ShareMe/n-${w}.txt`, {}, 'x'),
      [401, 409, 409, 409, 409, 403, 401],
    ],
  ];

  it('answers every method by caller as the app’s policies do', async () => {
    const failures: string[] = [];
    for (const [label, send, expected] of rows) {
      // DELETE doc removes the file: the viewer tries first, the editor deletes it, the owner finds it gone.
      const order: Caller[] = ['anonymous', 'viewer', 'nonMember', 'recipient', 'revoked', 'editor', 'owner'];
      for (const who of order) {
        const response = await send(who);
        await response.body?.cancel();
        const want = expected[CALLERS.indexOf(who)];
        if (response.status !== want) failures.push(`${label} as ${who}: ${response.status}, expected ${want}`);
        if (response.status === 401 && !response.headers.get('www-authenticate')?.startsWith('Basic realm="Atrium"')) {
          failures.push(`${label} as ${who}: 401 without the Basic challenge`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lists only what the caller may read, and refuses another person’s path', async () => {
    const list = async (who: Caller, path: string) => (await call(who, 'PROPFIND', path, { depth: '1' })).text();
    expect(await list('viewer', 'Workspaces/')).toContain('/Workspaces/DavTeam/');
    expect(await list('nonMember', 'Workspaces/')).not.toContain('DavTeam');
    expect(await list('recipient', 'Shared with me/')).toContain('/Shared%20with%20me/ShareMe/');
    expect(await list('nonMember', 'Shared with me/')).not.toContain('ShareMe');
    for (const method of ['PROPFIND', 'GET', 'PUT', 'MKCOL', 'DELETE', 'COPY', 'MOVE', 'PROPPATCH', 'LOCK', 'UNLOCK']) {
      const response = await server.fetch('/remote.php/dav/files/dava-owner/Personal/ShareMe/s.txt', {
        method,
        headers: { authorization: auth.editor.header ?? '', depth: '0' },
      });
      await response.body?.cancel();
      expect(response.status, method).toBe(403);
    }
  });

  it('takes the session cookie on /dav/ only, and refuses a cross-site change', async () => {
    const cookie = await server.signInAs({ owner_key: 'dava-editor' });
    const own = await server.fetch('/dav/Workspaces/DavTeam/', { method: 'PROPFIND', headers: { cookie, depth: '1' } });
    expect(own.status).toBe(207);
    const crossSite = await server.fetch('/dav/Workspaces/DavTeam/evil', {
      method: 'MKCOL',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const remote = await server.fetch('/remote.php/dav/files/dava-editor/', {
      method: 'PROPFIND',
      headers: { cookie, depth: '0' },
    });
    expect(remote.status).toBe(401);
  });
});
