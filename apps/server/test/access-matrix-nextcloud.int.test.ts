import type { CreatedAppPassword } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from './helpers';

/**
 * The access matrix of the Nextcloud protocol routes outside /api (docs/PRODUCT.md#nextcloud-clients): Login
 * Flow v2 (public: the tokens are the credentials) and the chunked uploads under `/remote.php/dav/uploads/{user}/`
 * (an app password of that very person; anyone else, admins included, finds nothing). Every caller: anonymous,
 * user A (the owner), user B, an admin, a session cookie without Basic, a wrong password.
 */
type Caller = 'anonymous' | 'userA' | 'userB' | 'admin' | 'cookieA' | 'wrongA';
const CALLERS: Caller[] = ['anonymous', 'userA', 'userB', 'admin', 'cookieA', 'wrongA'];

describe.each(dialects())('Nextcloud routes access matrix (%s)', (dialect) => {
  let server: TestServer;
  const headers = new Map<Caller, Record<string, string>>();
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    const basicOf = async (ownerKey: string, role?: 'admin') => {
      const cookie = await server.signInAs({ owner_key: ownerKey, ...(role ? { role } : {}) });
      const made = await expectJson<CreatedAppPassword>(
        sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'matrix' }),
        201,
      );
      return { cookie, authorization: `Basic ${Buffer.from(`${ownerKey}:${made.password}`).toString('base64')}` };
    };
    const a = await basicOf('ncm-a');
    headers.set('anonymous', {});
    headers.set('userA', { authorization: a.authorization });
    headers.set('userB', { authorization: (await basicOf('ncm-b')).authorization });
    headers.set('admin', { authorization: (await basicOf('ncm-admin', 'admin')).authorization });
    headers.set('cookieA', { cookie: a.cookie });
    headers.set('wrongA', { authorization: `Basic ${Buffer.from('ncm-a:wrong').toString('base64')}` });
  });
  afterAll(async () => server?.close());

  const call = (who: Caller, method: string, path: string, extra: Record<string, string> = {}, body?: string) =>
    server.fetch(path, {
      method,
      redirect: 'manual',
      headers: { ...headers.get(who), ...extra },
      ...(body === undefined ? {} : { body }),
    });

  it('answers Login Flow v2 to anyone: starting, polling (404 until granted) and the page redirect', async () => {
    const failures: string[] = [];
    for (const who of CALLERS) {
      const start = await call(who, 'POST', '/index.php/login/v2');
      if (start.status !== 200) failures.push(`${who} start → ${start.status}`);
      const { poll, login } = (await start.json()) as { poll: { token: string }; login: string };
      const polled = await call(
        who,
        'POST',
        '/index.php/login/v2/poll',
        {
          'content-type': 'application/x-www-form-urlencoded',
        },
        `token=${poll.token}`,
      );
      if (polled.status !== 404) failures.push(`${who} poll → ${polled.status}`);
      const page = await call(who, 'GET', new URL(login).pathname);
      if (page.status !== 302) failures.push(`${who} flow → ${page.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers chunked uploads only to the person named in the path, with an app password', async () => {
    const base = '/remote.php/dav/uploads/ncm-a';
    const destination = `${server.url}/remote.php/dav/files/ncm-a/Personal/matrix.bin`;
    // User A's own upload, where the others' calls are aimed.
    expect((await call('userA', 'MKCOL', `${base}/target`)).status).toBe(201);
    expect((await call('userA', 'PUT', `${base}/target/1`, {}, 'abc')).status).toBe(201);
    const others: Record<Caller, number> = {
      anonymous: 401,
      cookieA: 401,
      wrongA: 401,
      userB: 404,
      admin: 404,
      userA: 0,
    };
    const failures: string[] = [];
    for (const who of CALLERS.filter((c) => c !== 'userA')) {
      const want = others[who];
      for (const [method, path, extra, body] of [
        ['MKCOL', `${base}/by-${who}`, {}, undefined],
        ['PROPFIND', `${base}/target`, { depth: '1' }, undefined],
        ['PUT', `${base}/target/2`, {}, 'x'],
        ['MOVE', `${base}/target/.file`, { destination }, undefined],
        ['DELETE', `${base}/target`, {}, undefined],
      ] as const) {
        const answer = await call(who, method, path, extra, body);
        if (answer.status !== want) failures.push(`${who} ${method} ${path} → ${answer.status}, expected ${want}`);
      }
    }
    expect(failures).toEqual([]);
    // Nothing the others did touched A's upload: it still holds one chunk and assembles.
    const listing = await (await call('userA', 'PROPFIND', `${base}/target`, { depth: '1' })).text();
    expect(listing).toContain(`${base}/target/1<`);
    expect(listing).not.toContain(`${base}/target/2<`);
    expect((await call('userA', 'MOVE', `${base}/target/.file`, { destination })).status).toBe(201);
  });
});
