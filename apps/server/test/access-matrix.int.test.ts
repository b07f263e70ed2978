import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/plugins/access';
import { undeclaredApiRoutes } from '../src/plugins/access';
import { dialects, readError, startTestServer, type TestServer } from './helpers';

/**
 * The access-control matrix: every /api and /public/api route registered by
 * any module, read from the route table (so routes added later are covered
 * automatically), called as anonymous, user A, user B and admin.
 *
 * - `public`: anyone; never 403 for anonymous.
 * - `user`: anonymous 401; user A and admin pass. Path parameters named
 *   `userId` or `ownerKey` are filled with user A's owner key, so user B is
 *   asking for another user's resource and must get 403.
 * - `admin`: anonymous 401; users A and B 403; admin passes.
 * - `apikey` (the Azure/OpenAI compatibility paths, wherever they live): a
 *   session cookie is never enough, so every identity without a key gets 401.
 * "Passes" means neither 401 nor 403 (it may be 400 for the empty body, 404
 * for the probe id, 200…). Nothing may answer 5xx.
 */
const OWNER_PARAMS = new Set(['userId', 'ownerKey']);
const USER_A = 'matrix-user-a';
const USER_B = 'matrix-user-b';

const isApi = (url: string) => /^\/(api|public\/api)(\/|$)/.test(url);
const hasOwnerParam = (url: string) => [...url.matchAll(/:(\w+)/g)].some((m) => OWNER_PARAMS.has(m[1] ?? ''));
const fill = (url: string) =>
  url
    .replace(/:(\w+)\??/g, (_m, name: string) => (OWNER_PARAMS.has(name) ? USER_A : 'matrix-probe'))
    .replace(/\*/g, 'matrix-probe');

type Identity = 'anonymous' | 'userA' | 'userB' | 'admin';

function expected(route: RouteEntry, who: Identity): 'unauthenticated' | 'forbidden' | 'allowed' | 'any' {
  if (route.access === 'public') return 'any';
  if (route.access === 'apikey') return 'unauthenticated';
  if (who === 'anonymous') return 'unauthenticated';
  if (route.access === 'admin') return who === 'admin' ? 'allowed' : 'forbidden';
  if (who === 'userB' && hasOwnerParam(route.url)) return 'forbidden';
  return 'allowed';
}

describe.each(dialects())('access-control matrix (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      setup(app) {
        // A route that forgets to check in its handler: the declaration alone must protect it.
        app.post('/api/test/matrix-admin-only', { config: { access: 'admin' } }, async () => ({ ok: true }));
      },
    });
  });
  afterAll(async () => server?.close());

  const apiRoutes = () =>
    server.app.routeTable.filter((r) => (isApi(r.url) || r.access === 'apikey') && r.method !== 'HEAD');

  it('finds the routes of the app, every one with an access declaration', () => {
    const routes = apiRoutes();
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/me', 'POST /api/auth/login', 'POST /api/auth/logout', 'GET /api/auth/config']),
    );
    expect(undeclaredApiRoutes(server.app.routeTable)).toEqual([]);
    // The AI compatibility endpoints are walked too, though they live outside /api.
    expect(routes.filter((r) => r.access === 'apikey').map((r) => r.url)).toEqual(
      expect.arrayContaining(['/face/v1.0/detect', '/v1/audio/transcriptions']),
    );
    // The check itself notices a forgotten declaration.
    expect(undeclaredApiRoutes([{ method: 'GET', url: '/public/api/forgot', access: undefined }])).toHaveLength(1);
  });

  it('answers every route as declared for anonymous, user A, user B and admin', async () => {
    const cookieFor = async (who: Identity) => {
      if (who === 'anonymous') return undefined;
      if (who === 'admin') return server.signInAs({ owner_key: 'admin', role: 'admin' });
      return server.signInAs({ owner_key: who === 'userA' ? USER_A : USER_B });
    };
    const failures: string[] = [];
    for (const route of apiRoutes()) {
      for (const who of ['anonymous', 'userA', 'userB', 'admin'] as const) {
        const cookie = await cookieFor(who); // a fresh session per call: a logout route cannot spoil the next one
        const headers: Record<string, string> = cookie ? { cookie } : {};
        const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
        if (withBody) headers['content-type'] = 'application/json';
        const response = await server.fetch(fill(route.url), {
          method: route.method,
          headers,
          redirect: 'manual',
          ...(withBody ? { body: '{}' } : {}),
        });
        await response.body?.cancel();
        const status = response.status;
        const label = `${route.method} ${route.url} as ${who} (${route.access}) → ${status}`;
        const want = expected(route, who);
        if (status >= 500) failures.push(`${label}: server error`);
        else if (want === 'unauthenticated' && status !== 401) failures.push(`${label}: expected 401`);
        else if (want === 'forbidden' && status !== 403) failures.push(`${label}: expected 403`);
        else if (want === 'allowed' && (status === 401 || status === 403)) failures.push(`${label}: expected access`);
        else if (want === 'any' && who === 'anonymous' && status === 403)
          failures.push(`${label}: public route refused`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('enforces the declaration before the body is read, with the error shape', async () => {
    const anonymous = await server.fetch('/api/test/matrix-admin-only', { method: 'POST', body: 'not json' });
    expect(anonymous.status).toBe(401);
    expect((await readError(anonymous)).code).toBe('UNAUTHENTICATED');
    const cookie = await server.signInAs({ owner_key: USER_A });
    const user = await server.fetch('/api/test/matrix-admin-only', { method: 'POST', headers: { cookie } });
    expect(user.status).toBe(403);
    expect((await readError(user)).code).toBe('FORBIDDEN');
  });
});
