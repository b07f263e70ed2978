import { randomUUID } from 'node:crypto';
import type { FileDetails, FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/errors';
import type { RouteEntry } from '../src/plugins/access';
import { undeclaredApiRoutes } from '../src/plugins/access';
import { unsubscribeToken } from '../src/modules/mail/unsubscribe-token';
import { pdfWithText } from './analysis-fixtures';
import {
  dialects,
  expectJson,
  placePersonWithFace,
  readError,
  readJson,
  sendJson,
  startTestServer,
  uploadFile,
  userIdOf,
  type TestServer,
} from './helpers';

// Each test walks hundreds of requests (every route, every caller, both path forms); on a loaded 2-core machine a
// walk takes over the default 30 s. The time-out is a guard against a hang, not a speed target.
vi.setConfig({ testTimeout: 120_000 });

/**
 * The access-control matrix: every /api and /public/api route registered by
 * any module, read from the route table (so routes added later are covered
 * automatically), called as anonymous, user A, user B and admin.
 *
 * - `public`: anyone; never 403 for anonymous.
 * - `user`: anonymous 401; user A and admin pass. Path parameters named
 *   `userId` or `ownerKey` are filled with user A's owner key, so user B and
 *   the admin (who manages people, not content) are asking for another user's
 *   resource and must get 403 — except under
 *   `/api/workspaces/`, where `userId` names a member and the workspace decides,
 *   and in `…/shares/:userId`, where it names a share's recipient and the shared
 *   item decides (the workspace and sharing matrices below cover those routes by role).
 * - `admin`: anonymous 401; users A and B 403; admin passes.
 * - `apikey` (the Azure/OpenAI compatibility paths, wherever they live): a
 *   session cookie is never enough, so every identity without a key gets 401.
 * - `dav` (the WebDAV tree): every method of `/remote.php/dav/files/:userId/…`
 *   answers 401 to every session (Basic with an app password only), `/dav/…`
 *   signs the session in; OPTIONS answers anyone. The WebDAV matrix below
 *   covers every kind of caller with app passwords.
 * "Passes" means neither 401 nor 403 (it may be 400 for the empty body, 404
 * for the probe id, 200…). Nothing may answer 5xx.
 */
const OWNER_PARAMS = new Set(['userId', 'ownerKey']);
const USER_A = 'matrix-user-a';
const USER_B = 'matrix-user-b';

const isApi = (url: string) => /^\/(api|public\/api)(\/|$)/.test(url);
const hasOwnerParam = (url: string) =>
  !url.startsWith('/api/workspaces/') &&
  !url.includes('/shares/') &&
  [...url.matchAll(/:(\w+)/g)].some((m) => OWNER_PARAMS.has(m[1] ?? ''));
const fill = (url: string) =>
  url
    .replace(/:(\w+)\??/g, (_m, name: string) => (OWNER_PARAMS.has(name) ? USER_A : 'matrix-probe'))
    .replace(/\*/g, 'matrix-probe');

type Identity = 'anonymous' | 'userA' | 'userB' | 'admin';

function expected(route: RouteEntry, who: Identity): 'unauthenticated' | 'forbidden' | 'allowed' | 'signedIn' | 'any' {
  if (route.access === 'public') return 'any';
  if (route.access === 'dav') {
    // WebDAV: OPTIONS answers anyone (clients probe it first); /remote.php/… takes only an app password by Basic, so
    // a session is no sign-in there; /dav/… takes the session (a change to the tree's fixed parts may be 403).
    if (route.method === 'OPTIONS') return 'any';
    if (who === 'anonymous' || route.url.startsWith('/remote.php/')) return 'unauthenticated';
    return 'signedIn';
  }
  if (route.access === 'apikey') return 'unauthenticated';
  if (who === 'anonymous') return 'unauthenticated';
  if (route.access === 'admin') return who === 'admin' ? 'allowed' : 'forbidden';
  if ((who === 'userB' || who === 'admin') && hasOwnerParam(route.url)) return 'forbidden';
  return 'allowed';
}

/**
 * Path parameters are read from the path only. A route whose policy check and handler read an id
 * differently (say, the handler takes the end of the whole URL, query string included) acts on a
 * resource nobody checked. The rule: every route with path parameters, called by the owner of a real
 * resource, answers the same with a query string naming another resource (one that does not exist,
 * or user A's) in several spellings as without it.
 *
 * Real resources come from the fixtures below, found by route; a route without one is called with
 * probe ids (the rule still runs, but proves less). Owner parameters name the caller.
 */
interface ParamFixture {
  /** The routes whose parameter names this kind of resource. */
  route: RegExp;
  /** Creates one, owned by the identity behind `cookie` (owner key `owner`); returns its id. */
  make(server: TestServer, cookie: string, owner: string): Promise<string>;
  /** The request the route expects (default: a JSON `{}` body on POST, PUT and PATCH). */
  init?(method: string): RequestInit;
}

const TUS_HEADERS = { 'tus-resumable': '1.0.0' };
const b64 = (value: string) => Buffer.from(value).toString('base64');

async function createTusUpload(server: TestServer, cookie: string, owner: string, length = 4): Promise<string> {
  const created = await server.fetch('/api/files/tus', {
    method: 'POST',
    headers: {
      ...TUS_HEADERS,
      cookie,
      'upload-length': String(length),
      'upload-metadata': `filename ${b64('matrix.bin')},userId ${b64(owner)}`,
    },
  });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}`);
  return (created.headers.get('location') ?? '').split('/').pop() ?? '';
}

/**
 * The callers of a per-resource matrix: a workspace `owner`, `editor`, `viewer`, a `nonMember` and a share
 * `recipient` (owner keys `<prefix>-owner`… and `<prefix>-stranger`), the `admin`, each signed in once; `anonymous`
 * and `bearer` (a link bearer has no session) send no cookie.
 */
type RoleCaller = 'anonymous' | 'bearer' | 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'admin';

function roleCallers(server: () => TestServer, prefix: string) {
  const keys = {
    owner: `${prefix}-owner`,
    editor: `${prefix}-editor`,
    viewer: `${prefix}-viewer`,
    nonMember: `${prefix}-stranger`,
    recipient: `${prefix}-recipient`,
  };
  const sessions = new Map<RoleCaller, Promise<string>>();
  const cookieOf = async (who: RoleCaller): Promise<string | undefined> => {
    if (who === 'anonymous' || who === 'bearer') return undefined;
    let session = sessions.get(who);
    if (!session) {
      session =
        who === 'admin'
          ? server().signInAs({ owner_key: 'admin', role: 'admin' })
          : server().signInAs({ owner_key: keys[who] });
      sessions.set(who, session);
    }
    return session;
  };
  const send = async (who: RoleCaller, method: string, url: string, body?: unknown) =>
    sendJson(server(), await cookieOf(who), method, url, body);
  /** `POST /api/files/upload<query>` of `content` as `name` by `who`; answers the stored file. */
  const upload = async <T = { id: string }>(
    who: RoleCaller,
    query: string,
    name: string,
    content: string | Uint8Array,
  ) => expectJson<T>(uploadFile(server(), await cookieOf(who), query, name, content));
  /** Signs in the editor, the viewer, the non-member and the recipient (a member or a share needs the user). */
  const signInAll = async () => {
    for (const who of ['editor', 'viewer', 'nonMember', 'recipient'] as const) await cookieOf(who);
  };
  /** A workspace of the owner's named `name`, with the editor and the viewer as members. */
  const workspace = async (name: string) => {
    const ws = await expectJson<{ id: string }>(send('owner', 'POST', '/api/workspaces', { name }), 201);
    for (const who of ['editor', 'viewer'] as const)
      await expectJson(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys[who]}`, { role: who }));
    return ws;
  };
  return { keys, cookieOf, send, upload, signInAll, workspace };
}

/** The expected status of a call by `who`: 401 without a session, else the one of `want` in `callers`' order. */
const expectedOf = <C extends string>(
  who: C | 'anonymous' | 'bearer',
  callers: readonly C[],
  want: readonly number[],
) => (who === 'anonymous' || who === 'bearer' ? 401 : want[callers.indexOf(who)]);

/**
 * Records in `failures` a matrix call answered otherwise than `expected`, and a refused one (4xx) after which
 * `snapshot` reads otherwise than `before` (`changed` says what in the message).
 */
async function judge(
  failures: string[],
  label: string,
  response: Response,
  expected: number | undefined,
  unchanged: { before: string; snapshot: () => Promise<string>; changed?: string },
) {
  await response.body?.cancel();
  if (response.status !== expected) failures.push(`${label} → ${response.status}, expected ${expected}`);
  if (response.status >= 400 && (await unchanged.snapshot()) !== unchanged.before)
    failures.push(`${label} ${unchanged.changed ?? 'changed something'}`);
}

/** Creates a resource by `POST <path>` named "matrix" as the cookie's user; answers its id. */
async function createNamed(server: TestServer, cookie: string, path: string): Promise<string> {
  const created = await sendJson(server, cookie, 'POST', path, { name: 'matrix' });
  return (await readJson<{ id: string }>(created)).id;
}

/** The request of a rename (PATCH) of a named resource; the others need none. */
const renameInit = (method: string): RequestInit =>
  method === 'PATCH' ? { headers: { 'content-type': 'application/json' }, body: '{"name":"renamed"}' } : {};

/** The test-only route below: probe id → owner key. */
const confusedProbes = new Map<string, string>();
const CONFUSED_ROUTE = '/api/test/matrix-query-confused/:id';

const PARAM_FIXTURES: ParamFixture[] = [
  {
    route: /^\/api\/files\/tus\/:uploadId$/,
    make: (server, cookie, owner) => createTusUpload(server, cookie, owner),
    init: (method) =>
      method === 'PATCH'
        ? {
            headers: { ...TUS_HEADERS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
            body: 'x',
          }
        : { headers: TUS_HEADERS },
  },
  {
    route: /^\/api\/files\/(.+\/)?:id(\/|$)/,
    async make(server, cookie, owner) {
      const uploaded = await uploadFile(server, cookie, `?userId=${owner}`, 'matrix.txt', 'matrix');
      return (await readJson<FileRecord>(uploaded)).id;
    },
  },
  { route: /^\/api\/ai\/keys\/:id$/, make: (server, cookie) => createNamed(server, cookie, '/api/ai/keys') },
  {
    route: /^\/api\/(me|admin)\/app-passwords\/:id$/,
    make: (server, cookie) => createNamed(server, cookie, '/api/me/app-passwords'),
  },
  {
    // Contact messages come from the public form; stored directly (the form is rate-limited per address).
    route: /^\/api\/contact\/:id$/,
    async make(server) {
      const id = randomUUID();
      await server.app.database.db
        .insertInto('contact_messages')
        .values({
          id,
          name: 'Matrix',
          email: 'matrix@example.test',
          message: 'matrix',
          ip: '203.0.113.9',
          user_agent: null,
          created_at: new Date().toISOString(),
          read_at: null,
          handled_at: null,
        })
        .execute();
      return id;
    },
    init: (method) =>
      method === 'PATCH' ? { headers: { 'content-type': 'application/json' }, body: '{"read":true}' } : {},
  },
  {
    // One of the caller's own notifications (their welcome): marking it read acts on a real row they see.
    route: /^\/public\/api\/notifications\/:id\/read$/,
    async make(server, cookie) {
      const welcome = await server.fetch('/public/api/notifications/welcome', { method: 'POST', headers: { cookie } });
      if (welcome.status !== 200) throw new Error(`welcome answered ${welcome.status}`);
      return (await readJson<{ notification: { id: string } }>(welcome)).notification.id;
    },
  },
  {
    // A scheduled notification (admins), an hour ahead: the admin's cancel acts on a real pending message.
    route: /^\/api\/admin\/notifications\/scheduled\/:id$/,
    async make(server, cookie) {
      const created = await server.fetch('/api/admin/notifications/scheduled', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'matrix', sendAt: new Date(Date.now() + 3_600_000).toISOString() }),
      });
      if (created.status !== 201) throw new Error(`scheduling answered ${created.status}`);
      return (await readJson<{ id: string }>(created)).id;
    },
  },
  {
    route: /^\/api\/workspaces\/:id(\/|$)/,
    make: (server, cookie) => createNamed(server, cookie, '/api/workspaces'),
    init: renameInit,
  },
  {
    route: /^\/api\/folders\/:id$/,
    make: (server, cookie) => createNamed(server, cookie, '/api/folders'),
    init: renameInit,
  },
  {
    route: new RegExp(`^${CONFUSED_ROUTE}$`),
    make: async (_server, _cookie, owner) => {
      const id = randomUUID();
      confusedProbes.set(id, owner);
      return id;
    },
  },
];

/** Query strings naming the resource at `path` (whose last segment is `id`), spelled several ways. */
const confusingQueries = (path: string, id: string) => [
  `?x=/${id}`,
  `?x=%2F${id}`,
  `?x=/${id}/`,
  `?x=${path}`,
  `?${encodeURIComponent(path)}`,
  `?x=${encodeURIComponent(path)}&y=/${id}`,
];

/**
 * Applies the rule to `routes`; returns one line per difference. `caller` is who owns the resources the
 * path names (user B, or the admin on admin routes); the other resource in the query is user A's.
 */
async function queryConfusions(
  server: TestServer,
  routes: RouteEntry[],
  cookieFor: (who: 'userA' | 'userB' | 'admin') => Promise<string>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const route of routes.filter((r) => /:\w+/.test(r.url))) {
    const fixture = PARAM_FIXTURES.find((f) => f.route.test(route.url));
    const callerKey = route.access === 'admin' ? 'admin' : 'userB';
    const caller = { cookie: await cookieFor(callerKey), owner: callerKey === 'admin' ? 'admin' : USER_B };
    const other = { cookie: await cookieFor(route.access === 'admin' ? 'admin' : 'userA'), owner: USER_A };
    /** The route's path for a fresh resource of `who` (fresh each time: a call may delete or change it). */
    const pathFor = async (who: { cookie: string; owner: string }) => {
      const id = fixture ? await fixture.make(server, who.cookie, who.owner) : 'matrix-probe';
      return route.url.replace(/:(\w+)/g, (_m, name: string) => (OWNER_PARAMS.has(name) ? who.owner : id));
    };
    const call = async (url: string) => {
      const init = fixture?.init?.(route.method) ?? {};
      const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method) && init.body === undefined;
      const response = await server.fetch(url, {
        ...init,
        method: route.method,
        headers: {
          ...(init.headers as Record<string, string> | undefined),
          cookie: caller.cookie,
          ...(withBody ? { 'content-type': 'application/json' } : {}),
        },
        redirect: 'manual',
        ...(withBody ? { body: '{}' } : {}),
      });
      await response.body?.cancel();
      return response.status;
    };
    const plain = await call(await pathFor(caller));
    const missing = route.url.replace(/:(\w+)/g, 'matrix-missing');
    for (const otherPath of [missing, await pathFor(other)]) {
      for (const query of confusingQueries(otherPath, otherPath.split('/').pop() ?? '')) {
        const status = await call(`${await pathFor(caller)}${query}`);
        if (status !== plain)
          failures.push(`${route.method} ${route.url}${query}: ${status}, without the query ${plain}`);
      }
    }
  }
  return failures;
}

describe.each(dialects())('access-control matrix (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      setup(app) {
        // A route that forgets to check in its handler: the declaration alone must protect it.
        app.post('/api/test/matrix-admin-only', { config: { access: 'admin' } }, async () => ({ ok: true }));
        // A route that checks the id in its path but acts on the end of the whole URL (the mistake
        // the query-string rule exists for): the rule must notice it.
        app.get(CONFUSED_ROUTE, { config: { access: 'user' } }, async (request) => {
          const user = await request.requireUser();
          const { id } = request.params as { id: string };
          if (confusedProbes.get(id) !== user.ownerKey) throw new AppError('NOT_FOUND');
          const acted = /([^/]+)\/?$/.exec(request.url)?.[1] ?? '';
          if (!confusedProbes.has(acted)) throw new AppError('NOT_FOUND');
          return { id: acted };
        });
      },
    });
  });
  afterAll(async () => server?.close());

  const apiRoutes = () =>
    server.app.routeTable.filter(
      (r) => (isApi(r.url) || r.access === 'apikey' || r.access === 'dav') && r.method !== 'HEAD',
    );

  it('finds the routes of the app, every one with an access declaration', () => {
    const routes = apiRoutes();
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/me', 'POST /api/auth/login', 'POST /api/auth/logout', 'GET /api/auth/config']),
    );
    expect(undeclaredApiRoutes(server.app.routeTable)).toEqual([]);
    // Every WebDAV method on both path forms is walked too.
    expect(routes.filter((r) => r.access === 'dav').map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['LOCK /remote.php/dav/files/:userId/*', 'PROPFIND /dav/*', 'UNLOCK /dav']),
    );
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
        else if (want === 'signedIn' && status === 401) failures.push(`${label}: expected the session to sign in`);
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
  const signIn = (who: 'userA' | 'userB' | 'admin') =>
    who === 'admin'
      ? server.signInAs({ owner_key: 'admin', role: 'admin' })
      : server.signInAs({ owner_key: who === 'userA' ? USER_A : USER_B });

  it('reads path parameters from the path only: a query string naming another resource changes nothing', async () => {
    const routes = server.app.routeTable.filter((r) => isApi(r.url) && !r.url.startsWith('/api/test/'));
    // The rule has real resources behind the routes that matter here.
    const withFixture = routes.filter((r) => /:\w+/.test(r.url) && PARAM_FIXTURES.some((f) => f.route.test(r.url)));
    expect(withFixture.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['HEAD /api/files/tus/:uploadId', 'PATCH /api/files/tus/:uploadId', 'GET /api/files/:id']),
    );
    expect(await queryConfusions(server, routes, signIn)).toEqual([]);
    // The rule itself notices a route that checks one id and acts on another.
    const confused = server.app.routeTable.filter((r) => r.url === CONFUSED_ROUTE);
    expect(await queryConfusions(server, confused, signIn)).not.toEqual([]);
  });

  /**
   * Workspaces and folders by role: each route × {anonymous, owner, editor, viewer, non-member, admin} on a fresh
   * workspace (owner, editor, viewer as members) with a folder in it, and on the owner's personal folder. A refused
   * call changes nothing (the workspace's name, members and root listing are the same after it).
   */
  it('answers workspace and folder routes by role: owner, editor, viewer, non-member, admin', async () => {
    type Caller = 'anonymous' | 'owner' | 'editor' | 'viewer' | 'nonMember' | 'admin';
    const keys = { owner: 'ws-owner', editor: 'ws-editor', viewer: 'ws-viewer', nonMember: 'ws-stranger' };
    /** A fourth member, whom the others try to remove. */
    const other = 'ws-other';
    await server.signInAs({ owner_key: other });
    const cookieOf = async (who: Caller) =>
      who === 'anonymous'
        ? undefined
        : who === 'admin'
          ? server.signInAs({ owner_key: 'admin', role: 'admin' })
          : server.signInAs({ owner_key: keys[who] });
    const send = async (who: Caller, method: string, url: string, body?: unknown) =>
      sendJson(server, await cookieOf(who), method, url, body);
    const ok = expectJson;
    for (const who of ['editor', 'viewer', 'nonMember'] as const) await cookieOf(who);
    async function fixture() {
      const ws = await ok<{ id: string; rootFolderId: string }>(
        send('owner', 'POST', '/api/workspaces', { name: 'Matrix' }),
        201,
      );
      await ok(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys.editor}`, { role: 'editor' }));
      await ok(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys.viewer}`, { role: 'viewer' }));
      await ok(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${other}`, { role: 'viewer' }));
      const folder = await ok<{ id: string }>(
        send('owner', 'POST', '/api/folders', { name: 'Inside', workspaceId: ws.id }),
        201,
      );
      const personal = await ok<{ id: string }>(send('owner', 'POST', '/api/folders', { name: 'Mine' }), 201);
      return { ws: ws.id, root: ws.rootFolderId, folder: folder.id, personal: personal.id };
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const snapshot = async (f: Fixture) =>
      JSON.stringify(
        await Promise.all([
          send('owner', 'GET', `/api/workspaces/${f.ws}`).then((r) => r.json()),
          send('owner', 'GET', `/api/workspaces/${f.ws}/members`).then((r) => r.json()),
          send('owner', 'GET', `/api/folders/${f.root}`).then((r) => r.json()),
          send('owner', 'GET', `/api/folders/${f.personal}`).then((r) => r.json()),
        ]),
      );

    // Expected status per caller: owner, editor, viewer, non-member, admin (anonymous is always 401).
    type Row = [string, string, (f: Fixture) => string, unknown, [number, number, number, number, number]];
    const rows: Row[] = [
      ['GET', '/api/spaces', () => '/api/spaces', undefined, [200, 200, 200, 200, 200]],
      ['GET', '/api/users', () => '/api/users?q=ws', undefined, [200, 200, 200, 200, 200]],
      ['GET', '/api/workspaces', () => '/api/workspaces', undefined, [200, 200, 200, 200, 200]],
      ['POST', '/api/workspaces', () => '/api/workspaces', { name: 'New' }, [201, 201, 201, 201, 201]],
      ['GET', '/api/workspaces/:id', (f) => `/api/workspaces/${f.ws}`, undefined, [200, 200, 200, 404, 404]],
      ['PATCH', '/api/workspaces/:id', (f) => `/api/workspaces/${f.ws}`, { name: 'X' }, [200, 403, 403, 404, 404]],
      // Background analysis of the workspace's files (docs/PRODUCT.md#file-insights): members read it, owners change
      // it.
      [
        'GET',
        '/api/workspaces/:id/analysis',
        (f) => `/api/workspaces/${f.ws}/analysis`,
        undefined,
        [200, 200, 200, 404, 404],
      ],
      [
        'PUT',
        '/api/workspaces/:id/analysis',
        (f) => `/api/workspaces/${f.ws}/analysis`,
        { analysis: 'no-faces' },
        [200, 403, 403, 404, 404],
      ],
      ['DELETE', '/api/workspaces/:id', (f) => `/api/workspaces/${f.ws}`, undefined, [200, 403, 403, 404, 404]],
      [
        'GET',
        '/api/workspaces/:id/members',
        (f) => `/api/workspaces/${f.ws}/members`,
        undefined,
        [200, 200, 200, 404, 404],
      ],
      [
        'PUT',
        '/api/workspaces/:id/members/:userId',
        (f) => `/api/workspaces/${f.ws}/members/${keys.nonMember}`,
        { role: 'editor' },
        [200, 403, 403, 404, 404],
      ],
      [
        'DELETE',
        '/api/workspaces/:id/members/:userId',
        (f) => `/api/workspaces/${f.ws}/members/${other}`,
        undefined,
        [200, 403, 403, 404, 404],
      ],
      // Invitations by email (docs/PRODUCT.md#invitations): owners only.
      [
        'POST',
        '/api/workspaces/:id/invitations',
        (f) => `/api/workspaces/${f.ws}/invitations`,
        { email: 'invitee@example.test', role: 'viewer' },
        [201, 403, 403, 404, 404],
      ],
      [
        'GET',
        '/api/workspaces/:id/invitations',
        (f) => `/api/workspaces/${f.ws}/invitations`,
        undefined,
        [200, 403, 403, 404, 404],
      ],
      ['POST', '/api/folders', (f) => `/api/folders#${f.ws}`, 'workspace', [201, 201, 403, 404, 404]],
      ['POST', '/api/folders', (f) => `/api/folders#${f.folder}`, 'parent', [201, 201, 403, 404, 404]],
      ['GET', '/api/folders/:id', (f) => `/api/folders/${f.folder}`, undefined, [200, 200, 200, 404, 404]],
      ['PATCH', '/api/folders/:id', (f) => `/api/folders/${f.folder}`, { name: 'Y' }, [200, 200, 403, 404, 404]],
      ['DELETE', '/api/folders/:id', (f) => `/api/folders/${f.folder}`, undefined, [200, 200, 403, 404, 404]],
      // The owner's personal folder: nobody else, admins included.
      ['GET', '/api/folders/:id', (f) => `/api/folders/${f.personal}`, undefined, [200, 404, 404, 404, 404]],
      ['PATCH', '/api/folders/:id', (f) => `/api/folders/${f.personal}`, { name: 'Z' }, [200, 404, 404, 404, 404]],
      ['DELETE', '/api/folders/:id', (f) => `/api/folders/${f.personal}`, undefined, [200, 404, 404, 404, 404]],
    ];
    // Every spaces route is in the table.
    const spaceRoutes = server.app.routeTable
      .filter(
        (r) =>
          /^\/api\/(spaces|users|workspaces|folders)(\/|$)/.test(r.url) &&
          !r.url.includes('/shares') &&
          !r.url.includes('/people') && // People has its own matrix below
          !r.url.includes('/membership/') && // So has consent to membership (an invited caller)
          !r.url.endsWith('/activity') && // So has activity (with a share recipient)
          r.method !== 'HEAD',
      )
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(rows.map(([method, route]) => `${method} ${route}`))).toEqual(new Set(spaceRoutes));

    const failures: string[] = [];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'admin'] as const;
    for (const [method, route, urlOf, body, want] of rows) {
      for (const who of ['anonymous', ...callers] as const) {
        const f = await fixture();
        const before = await snapshot(f);
        const [url, target] = urlOf(f).split('#');
        const payload =
          body === 'workspace'
            ? { name: 'New', workspaceId: target }
            : body === 'parent'
              ? { name: 'New', parentId: target }
              : body;
        const response = await send(who, method, url ?? '', payload);
        const label = `${method} ${route} (${urlOf(f).includes(f.personal) ? 'personal' : 'workspace'}) as ${who}`;
        await judge(failures, label, response, expectedOf(who, callers, want), { before, snapshot: () => snapshot(f) });
      }
    }
    expect(failures).toEqual([]);
  });

  /**
   * Sharing by caller: each sharing route × {anonymous, owner, editor, viewer, non-member, share recipient, admin} on
   * a fresh workspace (owner, editor, viewer as members) with a folder and a file in it, both shared with the
   * recipient as viewer and with a second workspace the callers (but the non-member and the admin) belong to. A
   * refused call changes nothing (the item's share lists are the same after it).
   */
  it('answers sharing routes by caller: owner, editor, viewer, non-member, share recipient, admin', async () => {
    // One session per caller: no sharing route signs anyone out.
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'sh');
    const target = 'sh-target';
    await server.signInAs({ owner_key: target });
    const ok = expectJson;
    await signInAll();
    // The workspaces and memberships are the same for every call (no call changes them); the items are fresh.
    const ws = await workspace('Shared');
    const other = await ok<{ id: string }>(send('owner', 'POST', '/api/workspaces', { name: 'Other' }), 201);
    for (const who of ['editor', 'viewer', 'recipient'] as const) {
      await ok(send('owner', 'PUT', `/api/workspaces/${other.id}/members/${keys[who]}`, { role: 'viewer' }));
    }
    async function fixture() {
      const folder = await ok<{ id: string }>(
        send('owner', 'POST', '/api/folders', { name: 'Folder', workspaceId: ws.id }),
        201,
      );
      const file = await upload('owner', `?folderId=${folder.id}`, 'shared.txt', 'shared');
      for (const item of [`files/${file.id}`, `folders/${folder.id}`]) {
        await ok(send('owner', 'PUT', `/api/${item}/shares/${keys.recipient}`, { role: 'viewer' }), 201);
        await ok(send('owner', 'PUT', `/api/${item}/shares/workspaces/${other.id}`, { role: 'viewer' }), 201);
      }
      return { file: file.id, folder: folder.id, other: other.id };
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const snapshot = async (f: Fixture) =>
      JSON.stringify(
        await Promise.all([
          send('owner', 'GET', `/api/files/${f.file}/shares`).then((r) => r.json()),
          send('owner', 'GET', `/api/folders/${f.folder}/shares`).then((r) => r.json()),
        ]),
      );

    // Expected status per caller: owner, editor, viewer, non-member, recipient, admin (anonymous is always 401).
    type Row = [string, string, (f: Fixture) => string, unknown, [number, number, number, number, number, number]];
    const sharer = [201, 201, 403, 404, 403, 404] as [number, number, number, number, number, number];
    const reader = [200, 200, 403, 404, 403, 404] as [number, number, number, number, number, number];
    const rows: Row[] = [];
    for (const kind of ['files', 'folders'] as const) {
      const item = (f: Fixture) => `/api/${kind}/${kind === 'files' ? f.file : f.folder}`;
      rows.push(
        ['PUT', `/api/${kind}/:id/shares/:userId`, (f) => `${item(f)}/shares/${target}`, { role: 'editor' }, sharer],
        [
          'PUT',
          `/api/${kind}/:id/shares/workspaces/:workspaceId`,
          (f) => `${item(f)}/shares/workspaces/${f.other}`,
          { role: 'editor' },
          [200, 200, 403, 404, 403, 404],
        ],
        // The recipient may drop their own share.
        [
          'DELETE',
          `/api/${kind}/:id/shares/:userId`,
          (f) => `${item(f)}/shares/${keys.recipient}`,
          undefined,
          [200, 200, 403, 404, 200, 404],
        ],
        [
          'DELETE',
          `/api/${kind}/:id/shares/workspaces/:workspaceId`,
          (f) => `${item(f)}/shares/workspaces/${f.other}`,
          undefined,
          reader,
        ],
        ['GET', `/api/${kind}/:id/shares`, (f) => `${item(f)}/shares`, undefined, reader],
      );
    }
    rows.push(['GET', '/api/shared-with-me', () => '/api/shared-with-me', undefined, [200, 200, 200, 200, 200, 200]]);
    // Every sharing route is in the table.
    const sharingRoutes = server.app.routeTable
      .filter((r) => /\/shares(\/|$)|^\/api\/shared-with-me$/.test(r.url) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(rows.map(([method, route]) => `${method} ${route}`))).toEqual(new Set(sharingRoutes));
    // A file's insights (docs/PRODUCT.md#file-insights): exactly the file's read access — members, share recipients;
    // others 404.
    rows.push([
      'GET',
      '/api/files/:id/insights',
      (f) => `/api/files/${f.file}/insights`,
      undefined,
      [200, 200, 200, 404, 200, 404],
    ]);

    const failures: string[] = [];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const [method, route, urlOf, body, want] of rows) {
      for (const who of ['anonymous', ...callers] as const) {
        const f = await fixture();
        const before = await snapshot(f);
        const response = await send(who, method, urlOf(f), body);
        const label = `${method} ${route} as ${who}`;
        await judge(failures, label, response, expectedOf(who, callers, want), { before, snapshot: () => snapshot(f) });
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  /**
   * The AI services on a stored file (`?fileId=`, docs/PRODUCT.md#stored-files-on-the-ai-screens): the file's read
   * rule. Owner, editor, viewer and a viewer-share recipient reach the service (which then refuses the text file as
   * media: 415); a non-member and an admin outside the workspace get the 404 of a missing file; anonymous callers 401.
   */
  it('answers the AI services on a stored file (?fileId=) by the file read rule', async () => {
    type Caller = 'anonymous' | 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'admin';
    const keys = {
      owner: 'ai-owner',
      editor: 'ai-editor',
      viewer: 'ai-viewer',
      nonMember: 'ai-stranger',
      recipient: 'ai-recipient',
      admin: 'admin',
    };
    const cookies = new Map<Caller, string>();
    for (const who of ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const) {
      cookies.set(
        who,
        await server.signInAs(who === 'admin' ? { owner_key: 'admin', role: 'admin' } : { owner_key: keys[who] }),
      );
    }
    const asOwner = async (method: string, url: string, body: unknown) => {
      const response = await server.fetch(url, {
        method,
        headers: { cookie: cookies.get('owner') ?? '', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`fixture: ${response.status} ${await response.text()}`);
      return readJson<{ id: string }>(response);
    };
    const ws = await asOwner('POST', '/api/workspaces', { name: 'AI files' });
    await asOwner('PUT', `/api/workspaces/${ws.id}/members/${keys.editor}`, { role: 'editor' });
    await asOwner('PUT', `/api/workspaces/${ws.id}/members/${keys.viewer}`, { role: 'viewer' });
    const upload = await uploadFile(
      server,
      cookies.get('owner'),
      `?workspaceId=${ws.id}`,
      'notes.txt',
      'not an image, not a recording',
    );
    const file = await readJson<{ id: string }>(upload);
    await asOwner('PUT', `/api/files/${file.id}/shares/${keys.recipient}`, { role: 'viewer' });

    // Expected per caller: owner, editor, viewer, non-member, recipient, admin.
    const reached = (status: number) => [status, status, status, 404, status, 404];
    const rows: [string, number[]][] = [
      ['/api/ai/face-detection', reached(415)],
      ['/api/ai/image-analysis', reached(415)],
      ['/api/ai/speech-to-text', reached(415)],
    ];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    const failures: string[] = [];
    for (const [route, want] of rows) {
      for (const who of ['anonymous', ...callers] as const) {
        const cookie = cookies.get(who);
        const response = await server.fetch(`${route}?fileId=${file.id}`, {
          method: 'POST',
          headers: cookie ? { cookie } : {},
        });
        const expected = who === 'anonymous' ? 401 : (want[callers.indexOf(who)] ?? 0);
        const { code } = await readError(response);
        if (response.status !== expected) failures.push(`${route}?fileId= as ${who} → ${response.status} ${code}`);
        if (expected === 404 && code !== 'FILE_NOT_FOUND') failures.push(`${route}?fileId= as ${who}: ${code}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  /**
   * Public links (docs/PRODUCT.md#public-links). Managing a file's or folder's links needs `share` on it: owner and
   * editor yes; viewer and a viewer-share recipient 403; a non-member and an admin outside the workspace 404; anonymous
   * callers and link bearers (no session) 401. A refused call changes no link. Every public route answers a link's
   * bearer by the link's state alone — plain, locked (password, no cookie), unlocked (its cookie), expired, revoked —
   * the same whether the caller also has a session (owner, viewer, non-member, admin) or none.
   */
  it('answers link routes by role and public link routes by link state, whoever else the caller is', async () => {
    type Caller = 'anonymous' | 'bearer' | 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'admin';
    const keys = {
      owner: 'ln-owner',
      editor: 'ln-editor',
      viewer: 'ln-viewer',
      nonMember: 'ln-stranger',
      recipient: 'ln-recipient',
    };
    const db = server.app.database.db;
    for (const key of Object.values(keys)) await server.signInAs({ owner_key: key });
    let bearerCookie = '';
    const cookieOf = async (who: Caller) =>
      who === 'anonymous'
        ? undefined
        : who === 'bearer'
          ? bearerCookie || undefined
          : who === 'admin'
            ? server.signInAs({ owner_key: 'admin', role: 'admin' })
            : server.signInAs({ owner_key: keys[who] });
    const send = async (who: Caller, method: string, url: string, body?: unknown, extraCookie?: string) => {
      const cookie = [await cookieOf(who), extraCookie].filter(Boolean).join('; ');
      const isForm = body instanceof FormData;
      return server.fetch(url, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: isForm ? body : JSON.stringify(body) }),
      });
    };
    const ok = expectJson;
    async function fixture() {
      const ws = await ok<{ id: string }>(send('owner', 'POST', '/api/workspaces', { name: 'Links' }), 201);
      await ok(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys.editor}`, { role: 'editor' }));
      await ok(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys.viewer}`, { role: 'viewer' }));
      const folder = await ok<{ id: string }>(
        send('owner', 'POST', '/api/folders', { name: 'Shared', workspaceId: ws.id }),
        201,
      );
      const file = await ok<{ id: string }>(
        uploadFile(server, await cookieOf('owner'), `?folderId=${folder.id}`, 'matrix.txt', 'link matrix'),
      );
      await db
        .insertInto('shares')
        .values({
          id: randomUUID(),
          file_id: null,
          folder_id: folder.id,
          grantee_user_id: await userIdOf(server, keys.recipient),
          grantee_workspace_id: null,
          role: 'viewer',
          created_by: await userIdOf(server, keys.owner),
          created_at: new Date().toISOString(),
        })
        .execute();
      const link = await ok<{ id: string; token: string }>(
        send('owner', 'POST', '/api/links', { fileId: file.id }),
        201,
      );
      return { folder: folder.id, file: file.id, link: link.id, token: link.token };
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const linksOf = async (f: Fixture) =>
      JSON.stringify(
        await db
          .selectFrom('links')
          .select(['id', 'revoked_at'])
          .where((eb) => eb.or([eb('file_id', '=', f.file), eb('folder_id', '=', f.folder)]))
          .orderBy('id')
          .execute(),
      );

    // Expected status per caller: owner, editor, viewer, non-member, share recipient (viewer), admin.
    type Row = [string, string, (f: Fixture) => string, (f: Fixture) => unknown, number[]];
    const rows: Row[] = [
      ['POST', '/api/links', () => '/api/links', (f) => ({ fileId: f.file }), [201, 201, 403, 404, 403, 404]],
      ['POST', '/api/links', () => '/api/links', (f) => ({ folderId: f.folder }), [201, 201, 403, 404, 403, 404]],
      ['GET', '/api/links', (f) => `/api/links?fileId=${f.file}`, () => undefined, [200, 200, 403, 404, 403, 404]],
      ['GET', '/api/links', (f) => `/api/links?folderId=${f.folder}`, () => undefined, [200, 200, 403, 404, 403, 404]],
      ['DELETE', '/api/links/:id', (f) => `/api/links/${f.link}`, () => undefined, [200, 200, 403, 404, 403, 404]],
    ];
    const failures: string[] = [];
    const managing = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const [method, route, urlOf, bodyOf, want] of rows) {
      for (const who of ['anonymous', 'bearer', ...managing] as const) {
        const f = await fixture();
        if (who === 'bearer') bearerCookie = '';
        const before = await linksOf(f);
        const response = await send(who, method, urlOf(f), bodyOf(f));
        await judge(failures, `${method} ${route} as ${who}`, response, expectedOf(who, managing, want), {
          before,
          snapshot: () => linksOf(f),
          changed: 'changed a link',
        });
      }
    }

    // Public routes by link state.
    const f = await fixture();
    const make = async (body: Record<string, unknown>) =>
      ok<{ id: string; token: string }>(send('owner', 'POST', '/api/links', body), 201);
    type State = 'plain' | 'locked' | 'unlocked' | 'expired' | 'revoked';
    const states: State[] = ['plain', 'locked', 'unlocked', 'expired', 'revoked'];
    const unlockCookies = new Map<string, string>();
    const linkIn = async (state: State, target: Record<string, unknown>) => {
      const link = await make({ ...target, ...(state === 'locked' || state === 'unlocked' ? { password: 'pw' } : {}) });
      if (state === 'unlocked') {
        const unlocked = await send('anonymous', 'POST', `/api/public/links/${link.token}/unlock`, { password: 'pw' });
        unlockCookies.set(link.token, (unlocked.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
      }
      if (state === 'expired') {
        await db
          .updateTable('links')
          .set({ expires_at: '2020-01-01T00:00:00.000Z' })
          .where('id', '=', link.id)
          .execute();
      }
      if (state === 'revoked') await ok(send('owner', 'DELETE', `/api/links/${link.id}`));
      return link.token;
    };
    const fileLinks = new Map<State, string>();
    const folderLinks = new Map<State, string>();
    const dropLinks = new Map<State, string>();
    for (const state of states) {
      fileLinks.set(state, await linkIn(state, { fileId: f.file }));
      folderLinks.set(state, await linkIn(state, { folderId: f.folder }));
      dropLinks.set(state, await linkIn(state, { folderId: f.folder, allowUpload: true }));
    }
    const uploadForm = () => {
      const form = new FormData();
      form.append('file', new Blob(['dropped']), 'dropped.txt');
      return form;
    };
    // [route, links used, method, path after the token, body, expected per state]
    type PublicRow = [string, Map<State, string>, string, string, () => unknown, Record<State, number>];
    const byState = (plain: number, locked: number, unlocked = plain): Record<State, number> => ({
      plain,
      locked,
      unlocked,
      expired: 410,
      revoked: 404,
    });
    const publicRows: PublicRow[] = [
      ['GET /api/public/links/:token', fileLinks, 'GET', '', () => undefined, byState(200, 200)],
      ['GET /api/public/links/:token', folderLinks, 'GET', '', () => undefined, byState(200, 200)],
      ['GET /api/public/links/:token', dropLinks, 'GET', '', () => undefined, byState(200, 200)],
      ['GET /api/public/links/:token/download', fileLinks, 'GET', '/download', () => undefined, byState(200, 401)],
      ['GET /api/public/links/:token/download', folderLinks, 'GET', '/download', () => undefined, byState(400, 401)],
      [
        'GET /api/public/links/:token/files/:fileId/download',
        folderLinks,
        'GET',
        `/files/${f.file}/download`,
        () => undefined,
        byState(200, 401),
      ],
      [
        'GET /api/public/links/:token/files/:fileId/download',
        dropLinks,
        'GET',
        `/files/${f.file}/download`,
        () => undefined,
        byState(403, 401, 403),
      ],
      // The fixture's file is text: no thumbnail (404) once the link lets the bearer in.
      ['GET /api/public/links/:token/thumbnail', fileLinks, 'GET', '/thumbnail', () => undefined, byState(404, 401)],
      [
        'GET /api/public/links/:token/files/:fileId/thumbnail',
        folderLinks,
        'GET',
        `/files/${f.file}/thumbnail`,
        () => undefined,
        byState(404, 401),
      ],
      [
        'GET /api/public/links/:token/files/:fileId/thumbnail',
        dropLinks,
        'GET',
        `/files/${f.file}/thumbnail`,
        () => undefined,
        byState(403, 401, 403),
      ],
      ['GET /api/public/links/:token/zip', folderLinks, 'GET', '/zip', () => undefined, byState(200, 401)],
      ['GET /api/public/links/:token/zip', dropLinks, 'GET', '/zip', () => undefined, byState(403, 401, 403)],
      [
        'POST /api/public/links/:token/unlock',
        fileLinks,
        'POST',
        '/unlock',
        () => ({ password: 'pw' }),
        byState(200, 200),
      ],
      ['POST /api/public/links/:token/upload', dropLinks, 'POST', '/upload', uploadForm, byState(201, 401)],
      ['POST /api/public/links/:token/upload', folderLinks, 'POST', '/upload', uploadForm, byState(403, 401, 403)],
    ];
    const publicRoutes = server.app.routeTable
      .filter((r) => r.url.startsWith('/api/public/links') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(publicRows.map(([route]) => route))).toEqual(new Set(publicRoutes));
    for (const route of server.app.routeTable.filter((r) => r.url.startsWith('/api/public/links'))) {
      expect(route.access, route.url).toBe('public');
    }
    const unknownToken = 'no-such-link-token-0123456789ab';
    for (const [route, tokens, method, rest, bodyOf, want] of publicRows) {
      for (const who of ['anonymous', 'owner', 'viewer', 'nonMember', 'admin'] as const) {
        // Every call here comes from one address: its per-IP limit on public link routes (600 a minute, tested in
        // links.int.test.ts) would otherwise answer 429 before the matrix is through.
        await db.deleteFrom('rate_limits').where('key', 'like', 'public-links:%').execute();
        for (const state of states) {
          const token = tokens.get(state) ?? unknownToken;
          const response = await send(
            who,
            method,
            `/api/public/links/${token}${rest}`,
            bodyOf(),
            unlockCookies.get(token),
          );
          const label = `${route} (${state}) as ${who}`;
          if (response.status !== want[state]) failures.push(`${label} → ${response.status}, expected ${want[state]}`);
          if (response.status < 300 && method === 'GET' && rest === '') {
            const body = await readJson<{ locked: boolean }>(response);
            if (body.locked !== (state === 'locked')) failures.push(`${label}: locked is ${body.locked}`);
          } else await response.body?.cancel();
          if (response.status >= 400 && !response.headers.get('content-type')?.includes('application/json'))
            failures.push(`${label}: error without the JSON shape`);
          if (!response.headers.get('x-robots-tag')?.includes('noindex')) failures.push(`${label}: no noindex`);
          if (response.headers.get('referrer-policy') !== 'no-referrer') failures.push(`${label}: no no-referrer`);
        }
        const unknown = await send(who, method, `/api/public/links/${unknownToken}${rest}`, bodyOf());
        await unknown.body?.cancel();
        if (unknown.status !== 404) failures.push(`${route} (unknown token) as ${who} → ${unknown.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  /**
   * The trash (docs/PRODUCT.md#trash-and-versions), by caller: a workspace file's trash item is its editors' and
   * owners' (viewers, non-members, a recipient of a share on it and an admin outside the workspace: 404, the same as an
   * unknown id); a personal item is its owner's only. Anonymous callers and link bearers (who have no session: a link
   * never reaches the trash) get 401. A refused call changes nothing; `GET /api/trash` lists the item to those who may
   * act on it only.
   */
  it('answers trash routes by caller: owner, editor, viewer, non-member, share recipient, admin, bearer', async () => {
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'tr');
    const ok = expectJson;
    await signInAll();
    const ws = await workspace('Trash matrix');
    /** A fresh trashed file: in the workspace, or in the owner's personal space; shared with the recipient. */
    async function fixture(space: 'workspace' | 'personal') {
      const file = await upload('owner', space === 'workspace' ? `?workspaceId=${ws.id}` : '', 'trash.txt', 'trash');
      await ok(send('owner', 'PUT', `/api/files/${file.id}/shares/${keys.recipient}`, { role: 'editor' }), 201);
      await ok(send('owner', 'DELETE', `/api/files/user/${file.id}`));
      return file.id;
    }
    const listed = async (who: RoleCaller, id: string) => {
      const trash = await ok<{ items: { id: string }[] }>(send(who, 'GET', '/api/trash'));
      return trash.items.some((item) => item.id === id);
    };
    const snapshot = async () => JSON.stringify(await ok(send('owner', 'GET', '/api/trash')));

    // Expected status per caller: owner, editor, viewer, non-member, recipient, admin (anonymous and bearer: 401).
    type Row = [
      string,
      'workspace' | 'personal',
      (id: string) => string,
      [number, number, number, number, number, number],
    ];
    const rows: Row[] = [
      ['POST /api/trash/:id/restore', 'workspace', (id) => `/api/trash/${id}/restore`, [200, 200, 404, 404, 404, 404]],
      ['DELETE /api/trash/:id', 'workspace', (id) => `/api/trash/${id}`, [200, 200, 404, 404, 404, 404]],
      ['POST /api/trash/:id/restore', 'personal', (id) => `/api/trash/${id}/restore`, [200, 404, 404, 404, 404, 404]],
      ['DELETE /api/trash/:id', 'personal', (id) => `/api/trash/${id}`, [200, 404, 404, 404, 404, 404]],
      ['DELETE /api/trash', 'workspace', () => `/api/trash?workspaceId=${ws.id}`, [200, 200, 403, 404, 404, 404]],
      // Everyone may empty their own trash; it never reaches the owner's item.
      ['DELETE /api/trash', 'personal', () => '/api/trash', [200, 200, 200, 200, 200, 200]],
      ['GET /api/trash', 'workspace', () => '/api/trash', [200, 200, 200, 200, 200, 200]],
    ];
    const trashRoutes = server.app.routeTable
      .filter((r) => r.url.startsWith('/api/trash') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(rows.map(([route]) => route))).toEqual(new Set(trashRoutes));

    const failures: string[] = [];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const [route, space, urlOf, want] of rows) {
      const method = route.split(' ')[0] ?? 'GET';
      for (const who of ['anonymous', 'bearer', ...callers] as const) {
        const id = await fixture(space);
        const expectedStatus = expectedOf(who, callers, want);
        const label = `${route} (${space} item) as ${who}`;
        if (route === 'GET /api/trash' && who !== 'anonymous' && who !== 'bearer') {
          const sees = await listed(who, id);
          if (sees !== (who === 'owner' || who === 'editor')) failures.push(`${label}: lists the item: ${sees}`);
        }
        const before = await snapshot();
        const response = await send(who, method, urlOf(id));
        await response.body?.cancel();
        if (response.status !== expectedStatus)
          failures.push(`${label} → ${response.status}, expected ${expectedStatus}`);
        const after = await snapshot();
        if (
          (response.status >= 400 || (route === 'DELETE /api/trash' && space === 'personal' && who !== 'owner')) &&
          after !== before
        )
          failures.push(`${label} changed something`);
        // Leave the trash clean for the next call.
        await send('owner', 'DELETE', `/api/trash/${id}`).then((r) => r.body?.cancel());
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  /**
   * File versions (docs/PRODUCT.md#trash-and-versions), by caller, on a workspace file with one older version: reading
   * them needs `read` on the file (owner, editor, viewer, a viewer-share recipient), restoring one `write` (viewer and
   * recipient 403); a non-member and an admin outside the workspace 404; anonymous callers and link bearers 401. A
   * refused restore changes nothing.
   */
  it('answers file version routes by caller: owner, editor, viewer, non-member, share recipient, admin, bearer', async () => {
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'fv');
    const ok = expectJson;
    await signInAll();
    const ws = await workspace('Versions matrix');
    let made = 0;
    const put = (content: string, query: string, name: string) =>
      upload('owner', `?workspaceId=${ws.id}${query}`, name, content);
    /** A fresh file with one older version, shared with the recipient as a viewer. */
    async function fixture() {
      const name = `versioned-${(made += 1)}.txt`;
      const file = await put('first', '', name);
      await put('second', '&onConflict=replace', name);
      const versions = await ok<{ versions: { id: string }[] }>(send('owner', 'GET', `/api/files/${file.id}/versions`));
      await ok(send('owner', 'PUT', `/api/files/${file.id}/shares/${keys.recipient}`, { role: 'viewer' }), 201);
      return { file: file.id, version: versions.versions[0]?.id ?? '' };
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const snapshot = async (f: Fixture) =>
      JSON.stringify(await ok(send('owner', 'GET', `/api/files/${f.file}/versions`)));
    type Row = [string, string, (f: Fixture) => string, [number, number, number, number, number, number]];
    const rows: Row[] = [
      ['GET', '/api/files/:id/versions', (f) => `/api/files/${f.file}/versions`, [200, 200, 200, 404, 200, 404]],
      [
        'GET',
        '/api/files/:id/versions/:versionId/content',
        (f) => `/api/files/${f.file}/versions/${f.version}/content`,
        [200, 200, 200, 404, 200, 404],
      ],
      [
        'POST',
        '/api/files/:id/versions/:versionId/restore',
        (f) => `/api/files/${f.file}/versions/${f.version}/restore`,
        [200, 200, 403, 404, 403, 404],
      ],
    ];
    const versionRoutes = server.app.routeTable
      .filter((r) => r.url.includes('/versions') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(rows.map(([method, route]) => `${method} ${route}`))).toEqual(new Set(versionRoutes));
    const failures: string[] = [];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const [method, route, urlOf, want] of rows) {
      for (const who of ['anonymous', 'bearer', ...callers] as const) {
        const f = await fixture();
        const before = await snapshot(f);
        const response = await send(who, method, urlOf(f));
        const label = `${method} ${route} as ${who}`;
        await judge(failures, label, response, expectedOf(who, callers, want), { before, snapshot: () => snapshot(f) });
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  /**
   * Grid view (docs/PRODUCT.md#grid-view), by caller. Preferences: every signed-in caller reads and changes only their
   * own (a PUT by one leaves the others' as they were); anonymous callers and link bearers 401. A PDF's thumbnail:
   * exactly the file's read access (owner, editor, viewer, a viewer-share recipient 200; non-member and an admin
   * outside the workspace 404; anonymous and bearers 401).
   */
  it('answers preferences and PDF thumbnails by caller: owner, editor, viewer, non-member, recipient, admin, bearer', async () => {
    const { keys, cookieOf, send, upload, workspace } = roleCallers(() => server, 'gv');
    const ok = expectJson;
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const who of callers) await cookieOf(who);
    const failures: string[] = [];
    const check = async (who: RoleCaller, method: string, url: string, want: number, body?: unknown) => {
      const response = await send(who, method, url, body);
      await response.body?.cancel();
      if (response.status !== want) failures.push(`${method} ${url} as ${who} → ${response.status}, expected ${want}`);
    };
    for (const who of ['anonymous', 'bearer'] as const) {
      await check(who, 'GET', '/api/me/preferences', 401);
      await check(who, 'PUT', '/api/me/preferences', 401, { fileView: 'grid' });
    }
    for (const who of callers) {
      const before = await Promise.all(
        callers.map(async (c) => JSON.stringify(await ok(send(c, 'GET', '/api/me/preferences')))),
      );
      expect(await ok(send(who, 'PUT', '/api/me/preferences', { fileView: 'grid' }))).toEqual({ fileView: 'grid' });
      expect(await ok(send(who, 'GET', '/api/me/preferences'))).toEqual({ fileView: 'grid' });
      const after = await Promise.all(
        callers.map(async (c) => JSON.stringify(await ok(send(c, 'GET', '/api/me/preferences')))),
      );
      callers.forEach((c, i) => {
        if (c !== who && after[i] !== before[i]) failures.push(`PUT /api/me/preferences as ${who} changed ${c}'s`);
      });
    }

    const ws = await workspace('Grid matrix');
    const pdf = await upload<FileRecord>('owner', `?workspaceId=${ws.id}`, 'matrix.pdf', pdfWithText('matrix'));
    await ok(send('owner', 'PUT', `/api/files/${pdf.id}/shares/${keys.recipient}`, { role: 'viewer' }), 201);
    const want = {
      owner: 200,
      editor: 200,
      viewer: 200,
      nonMember: 404,
      recipient: 200,
      admin: 404,
      anonymous: 401,
      bearer: 401,
    };
    for (const who of ['anonymous', 'bearer', ...callers] as const)
      await check(who, 'GET', `/api/files/${pdf.id}/thumbnail`, want[who]);
    expect(failures).toEqual([]);
  }, 120_000);

  /**
   * Email (docs/PRODUCT.md#email), by caller. Email preferences: every signed-in caller reads and changes only their
   * own; anonymous callers and link bearers 401. The unsubscribe link is public and acts only on the person it was
   * signed for, whoever opens it (a session changes nothing); a token for another person or kind is 400.
   */
  it('answers email preferences and unsubscribe links by caller: owner, editor, viewer, non-member, admin, bearer', async () => {
    const { keys, cookieOf, send } = roleCallers(() => server, 'em');
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    for (const who of callers) await cookieOf(who);
    const failures: string[] = [];
    const read = async (who: RoleCaller) =>
      JSON.stringify(await expectJson(send(who, 'GET', '/api/me/email-preferences')));
    for (const who of ['anonymous', 'bearer'] as const) {
      for (const method of ['GET', 'PUT']) {
        const body = method === 'PUT' ? { shareNotices: true } : undefined;
        const response = await send(who, method, '/api/me/email-preferences', body);
        if (response.status !== 401) failures.push(`${method} email-preferences as ${who} → ${response.status}`);
      }
    }
    for (const who of callers) {
      const before = await Promise.all(callers.map(read));
      await expectJson(send(who, 'PUT', '/api/me/email-preferences', { shareNotices: true }));
      const after = await Promise.all(callers.map(read));
      callers.forEach((c, i) => {
        if (c !== who && after[i] !== before[i]) failures.push(`PUT email-preferences as ${who} changed ${c}'s`);
      });
    }
    const ownerId = await userIdOf(server, keys.owner);
    const link = (userId: string, kind: 'share' | 'digest') =>
      `/api/public/unsubscribe?u=${userId}&k=${kind}&t=${unsubscribeToken(server.config.session.secret, userId, kind)}`;
    for (const who of ['anonymous', 'bearer', 'editor', 'admin'] as const) {
      const forged = await send(who, 'GET', link(ownerId, 'share').replace(/k=share/, 'k=member'));
      if (forged.status !== 400) failures.push(`forged unsubscribe as ${who} → ${forged.status}`);
      await forged.body?.cancel();
    }
    const opened = await send('editor', 'GET', link(ownerId, 'share'));
    await opened.body?.cancel();
    expect(opened.status).toBe(200);
    expect(JSON.parse(await read('owner'))).toMatchObject({ shareNotices: false });
    expect(JSON.parse(await read('editor'))).toMatchObject({ shareNotices: true });
    expect(failures).toEqual([]);
  });

  /**
   * A file's details (docs/PRODUCT.md#file-details), by caller, on a workspace file shared with the recipient as a
   * viewer and with an active link: reading them needs `read` (owner, editor, viewer, recipient 200); a non-member and
   * an admin outside the workspace 404 (its existence does not leak); anonymous callers and link bearers 401. Who has
   * access and the links are shown to those who may share the file (owner, editor) and null for the viewer and the
   * recipient, whose activity leaves the share and link entries out.
   */
  it('answers the file details route by caller: owner, editor, viewer, non-member, share recipient, admin, bearer', async () => {
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'fd');
    const ok = expectJson;
    await signInAll();
    const ws = await workspace('Details matrix');
    const file = await upload('owner', `?workspaceId=${ws.id}`, 'details.txt', 'details matrix');
    await ok(send('owner', 'PUT', `/api/files/${file.id}/shares/${keys.recipient}`, { role: 'viewer' }), 201);
    const link = await ok<{ id: string }>(send('owner', 'POST', '/api/links', { fileId: file.id }), 201);
    const routes = server.app.routeTable
      .filter((r) => r.url.endsWith('/details') && r.url.startsWith('/api/files') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(['GET /api/files/:id/details']);

    const want = { owner: 200, editor: 200, viewer: 200, nonMember: 404, recipient: 200, admin: 404 } as const;
    const failures: string[] = [];
    for (const who of [
      'anonymous',
      'bearer',
      'owner',
      'editor',
      'viewer',
      'nonMember',
      'recipient',
      'admin',
    ] as const) {
      const response = await send(who, 'GET', `/api/files/${file.id}/details`);
      const expected = who === 'anonymous' || who === 'bearer' ? 401 : want[who];
      if (response.status !== expected) failures.push(`details as ${who} → ${response.status}, expected ${expected}`);
      if (response.status !== 200) {
        const body = (await response.json()) as { error?: { code?: string } };
        if (!body.error?.code) failures.push(`details as ${who}: no error shape`);
        continue;
      }
      const details = (await response.json()) as FileDetails;
      const manages = who === 'owner' || who === 'editor';
      if (manages) {
        const names = (details.access ?? []).map((entry) => `${entry.kind}:${entry.principal.name}:${entry.role}`);
        for (const expectedEntry of [
          `member:${keys.owner}:owner`,
          `member:${keys.editor}:editor`,
          `member:${keys.viewer}:viewer`,
          `share:${keys.recipient}:viewer`,
        ])
          if (!names.includes(expectedEntry)) failures.push(`details as ${who}: access lacks ${expectedEntry}`);
        if (details.links?.map((l) => l.id).join() !== link.id) failures.push(`details as ${who}: links`);
        if (!details.activity.some((a) => a.action === 'share.created'))
          failures.push(`details as ${who}: no share in activity`);
      } else {
        if (details.access !== null || details.links !== null) failures.push(`details as ${who}: sees access/links`);
        if (details.activity.some((a) => a.action.startsWith('share.') || a.action.startsWith('link.')))
          failures.push(`details as ${who}: sees share or link activity`);
      }
      if (!details.activity.some((a) => a.action === 'file.uploaded'))
        failures.push(`details as ${who}: no upload in activity`);
      if (details.yourRole !== (who === 'recipient' ? 'viewer' : who)) failures.push(`details as ${who}: role`);
    }
    expect(failures).toEqual([]);
  });

  /**
   * Activity, the home, Starred and Recent (docs/PRODUCT.md#activity, #dashboard-home, #starred-and-recent), by caller, on a
   * workspace folder shared with the recipient as a viewer: a workspace's feed is its members' (a non-member, the
   * recipient and an admin outside it 404); a folder's feed and a star take `read` on the item (the recipient 200);
   * removing one's own star, the home, Starred and Recent answer every signed-in person, with only what they reach;
   * share entries only for who may share. Anonymous callers and link bearers 401.
   */
  it('answers activity, home, star and recent routes by caller: owner, editor, viewer, non-member, recipient, admin, bearer', async () => {
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'act');
    const ok = expectJson;
    await signInAll();
    const ws = await workspace('Activity matrix');
    const root = (await ok<{ rootFolderId: string }>(send('owner', 'GET', `/api/workspaces/${ws.id}`))).rootFolderId;
    const folder = await ok<{ id: string }>(
      send('owner', 'POST', '/api/folders', { name: 'Act', parentId: root }),
      201,
    );
    const file = await upload('editor', `?folderId=${folder.id}`, 'activity.txt', 'activity matrix');
    await ok(send('owner', 'PUT', `/api/folders/${folder.id}/shares/${keys.recipient}`, { role: 'viewer' }), 201);
    const routes = server.app.routeTable
      .filter(
        (r) =>
          (r.url.endsWith('/activity') || /^\/api\/(home|recent|starred|stars)(\/|$)/.test(r.url)) &&
          r.method !== 'HEAD',
      )
      .map((r) => `${r.method} ${r.url}`);
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    const rows: [string, string, string, readonly number[]][] = [
      ['GET /api/workspaces/:id/activity', 'GET', `/api/workspaces/${ws.id}/activity`, [200, 200, 200, 404, 404, 404]],
      ['GET /api/folders/:id/activity', 'GET', `/api/folders/${folder.id}/activity`, [200, 200, 200, 404, 200, 404]],
      ['PUT /api/stars/:kind/:id', 'PUT', `/api/stars/file/${file.id}`, [200, 200, 200, 404, 200, 404]],
      ['PUT /api/stars/:kind/:id', 'PUT', `/api/stars/folder/${folder.id}`, [200, 200, 200, 404, 200, 404]],
      ['DELETE /api/stars/:kind/:id', 'DELETE', `/api/stars/folder/${folder.id}`, [200, 200, 200, 200, 200, 200]],
      ['GET /api/home', 'GET', '/api/home', [200, 200, 200, 200, 200, 200]],
      ['GET /api/recent', 'GET', '/api/recent', [200, 200, 200, 200, 200, 200]],
      ['GET /api/starred', 'GET', '/api/starred', [200, 200, 200, 200, 200, 200]],
    ];
    expect(new Set(rows.map(([route]) => route))).toEqual(new Set(routes));
    const failures: string[] = [];
    for (const [route, method, url, want] of rows) {
      for (const who of ['anonymous', 'bearer', ...callers] as const) {
        const response = await send(who, method, url);
        const expected = expectedOf(who, callers, want);
        const label = `${route} (${url}) as ${who}`;
        if (response.status !== expected) failures.push(`${label} → ${response.status}, expected ${expected}`);
        const body = (await response.json()) as Record<string, unknown> & { error?: { code?: string } };
        if (response.status >= 400 && !body.error?.code) failures.push(`${label}: no error shape`);
        if (response.status !== 200) continue;
        const text = JSON.stringify(body);
        const reaches = who !== 'nonMember' && who !== 'admin';
        if (url === '/api/recent' && text.includes(file.id) !== reaches) failures.push(`${label}: reach of Recent`);
        if (url.endsWith('/activity') && text.includes('share.created') !== (who === 'owner' || who === 'editor'))
          failures.push(`${label}: share entries`);
        if (url.endsWith('/activity') && !text.includes('file.uploaded')) failures.push(`${label}: no upload`);
      }
    }
    expect(failures).toEqual([]);
  });

  /**
   * People in photos (docs/PRODUCT.md#people), by caller, on a workspace with People on and two people (rows written
   * directly: the face engine is not what is tested here): members read (owner, editor, viewer), editors and owners
   * name, merge, split and remove faces (viewers 403), owners turn People on or off; a non-member, the recipient of a
   * share on a photo in the workspace and an admin outside it get the 404 of a missing workspace; anonymous callers and
   * link bearers 401. A refused call changes nothing.
   */
  it('answers people routes by caller: owner, editor, viewer, non-member, share recipient, admin, bearer', async () => {
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'pp');
    const ok = expectJson;
    await signInAll();
    const ws = await workspace('People matrix');
    const db = server.app.database.db;
    const now = new Date().toISOString();
    await db.insertInto('people_settings').values({ space_key: ws.id, workspace_id: ws.id, updated_at: now }).execute();
    let made = 0;
    /** Two fresh people of one face each, on a photo of the workspace shared with the recipient. */
    async function fixture() {
      made += 1;
      const file = await upload('owner', `?workspaceId=${ws.id}`, `people-${made}.jpg`, 'not really a photo');
      await ok(send('owner', 'PUT', `/api/files/${file.id}/shares/${keys.recipient}`, { role: 'editor' }), 201);
      const ids = { person: randomUUID(), other: randomUUID(), face: randomUUID(), otherFace: randomUUID() };
      for (const [person, face] of [
        [ids.person, ids.face],
        [ids.other, ids.otherFace],
      ] as const) {
        await placePersonWithFace(
          db,
          { fileId: file.id, spaceKey: ws.id, workspaceId: ws.id, personId: person, faceId: face },
          0.3,
        );
      }
      return ids;
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const snapshot = async () =>
      JSON.stringify([
        await db.selectFrom('people').selectAll().where('space_key', '=', ws.id).orderBy('id').execute(),
        await db.selectFrom('faces').selectAll().where('space_key', '=', ws.id).orderBy('id').execute(),
        await db.selectFrom('people_settings').selectAll().execute(),
      ]);
    const base = `/api/spaces/${ws.id}/people`;
    type Row = [string, string, (f: Fixture) => string, unknown, [number, number, number, number, number, number]];
    const rows: Row[] = [
      ['GET', '/api/spaces/:spaceId/people', () => base, undefined, [200, 200, 200, 404, 404, 404]],
      [
        'GET',
        '/api/spaces/:spaceId/people/:personId',
        (f) => `${base}/${f.person}`,
        undefined,
        [200, 200, 200, 404, 404, 404],
      ],
      [
        'PATCH',
        '/api/spaces/:spaceId/people/:personId',
        (f) => `${base}/${f.person}`,
        { name: 'Named' },
        [200, 200, 403, 404, 404, 404],
      ],
      [
        'POST',
        '/api/spaces/:spaceId/people/:personId/merge',
        (f) => `${base}/${f.person}/merge`,
        (f: Fixture) => ({ personId: f.other }),
        [200, 200, 403, 404, 404, 404],
      ],
      [
        'POST',
        '/api/spaces/:spaceId/people/:personId/split',
        (f) => `${base}/${f.person}/split`,
        (f: Fixture) => ({ faceIds: [f.face] }),
        [201, 201, 403, 404, 404, 404],
      ],
      [
        'DELETE',
        '/api/spaces/:spaceId/people/:personId/faces/:faceId',
        (f) => `${base}/${f.person}/faces/${f.face}`,
        undefined,
        [200, 200, 403, 404, 404, 404],
      ],
      // Turned off (last: it deletes the space's people), only by owners.
      [
        'PUT',
        '/api/spaces/:spaceId/people/settings',
        () => `${base}/settings`,
        { enabled: false },
        [200, 403, 403, 404, 404, 404],
      ],
    ];
    const peopleRoutes = server.app.routeTable
      .filter((r) => r.url.includes('/people') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(new Set(rows.map(([method, route]) => `${method} ${route}`))).toEqual(new Set(peopleRoutes));
    const failures: string[] = [];
    const callers = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'] as const;
    // The owner last: a successful call changes the fixture.
    for (const [method, route, urlOf, body, want] of rows) {
      for (const who of [
        'anonymous',
        'bearer',
        'editor',
        'viewer',
        'nonMember',
        'recipient',
        'admin',
        'owner',
      ] as const) {
        const f = await fixture();
        const before = await snapshot();
        const response = await send(who, method, urlOf(f), typeof body === 'function' ? body(f) : body);
        await judge(failures, `${method} ${route} as ${who}`, response, expectedOf(who, callers, want), {
          before,
          snapshot,
        });
        if (route.endsWith('/settings') && response.status === 200)
          await db
            .insertInto('people_settings')
            .values({ space_key: ws.id, workspace_id: ws.id, updated_at: now })
            .execute();
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps tus uploads to their owner: no metadata, query-string or id trick reaches user A', async () => {
    const a = await signIn('userA');
    const b = await signIn('userB');
    const filesOfA = async () =>
      (await readJson<FileRecord[]>(await server.fetch(`/api/files/user/${USER_A}`, { headers: { cookie: a } }))).map(
        (file) => file.id,
      );
    const filesBefore = await filesOfA();
    const uploadOfA = await createTusUpload(server, a, USER_A);
    const stateOfA = async () => {
      const head = await server.fetch(`/api/files/tus/${uploadOfA}`, {
        method: 'HEAD',
        headers: { ...TUS_HEADERS, cookie: a },
      });
      return `${head.status} ${head.headers.get('upload-offset')}/${head.headers.get('upload-length')}`;
    };
    expect(await stateOfA()).toBe('200 0/4');
    const failures: string[] = [];
    const send = async (
      method: string,
      url: string,
      init: { headers?: Record<string, string>; body?: string } = {},
    ) => {
      const response = await server.fetch(url, {
        method,
        headers: { ...TUS_HEADERS, cookie: b, ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      await response.body?.cancel();
      return response;
    };
    const expectStatus = async (label: string, response: Promise<Response>, want: number) => {
      const { status } = await response;
      if (status !== want) failures.push(`${label} → ${status}, expected ${want}`);
      if ((await stateOfA()) !== '200 0/4') failures.push(`${label} changed user A's upload: ${await stateOfA()}`);
    };

    // POST: metadata naming user A, or reading as user A to tus (a key repeated or prefixed with blanks).
    const metadataTricks: [string, number][] = [
      [`userId ${b64(USER_A)}`, 403],
      [`userId ${b64(USER_A)},\tuserId ${b64(USER_B)}`, 400],
      [`userId ${b64(USER_B)},\tuserId ${b64(USER_A)}`, 400],
      [`userId ${b64(USER_B)}, userId ${b64(USER_A)}`, 400],
      [`userId ${b64(USER_B)},userId ${b64(USER_A)}`, 400],
      [`userId ${b64(USER_A)},userId ${b64(USER_B)}`, 400],
    ];
    for (const [metadata, want] of metadataTricks) {
      for (const url of ['/api/files/tus', `/api/files/tus?x=/${uploadOfA}`]) {
        const headers = { 'upload-length': '4', 'upload-metadata': `filename ${b64('evil.txt')},${metadata}` };
        await expectStatus(`POST ${url} ${JSON.stringify(metadata)}`, send('POST', url, { headers }), want);
        // Creation with upload: the whole file in the POST would be committed at once.
        const withBody = { headers: { ...headers, 'content-type': 'application/offset+octet-stream' }, body: 'evil' };
        await expectStatus(`POST ${url} ${JSON.stringify(metadata)} with body`, send('POST', url, withBody), want);
      }
    }

    // HEAD, PATCH, DELETE on user A's upload id, however spelled: 404, as for a missing upload.
    const uploadOfB = await createTusUpload(server, b, USER_B);
    const patch = {
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'evil',
    };
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      for (const url of [
        `/api/files/tus/${uploadOfA}`,
        `/api/files/tus/${uploadOfA}/`,
        `/api/files/tus/${uploadOfA}?x=/${uploadOfB}`,
        `/api/files/tus/${uploadOfA}?x=%2F${uploadOfB}`,
      ]) {
        await expectStatus(`${method} ${url}`, send(method, url, method === 'PATCH' ? patch : {}), 404);
      }
    }
    // OPTIONS says nothing about an upload: the same answer for user A's id as for a missing one.
    const optionsOf = async (id: string) => {
      const response = await send('OPTIONS', `/api/files/tus/${id}`);
      return `${response.status} ${response.headers.get('tus-extension')} ${response.headers.get('upload-length')}`;
    };
    expect(await optionsOf(uploadOfA)).toBe(await optionsOf('0123456789abcdef0123456789abcdef'));

    // User B's own upload with user A's id in the query string: B's upload is read, written and finished.
    for (const query of [`?x=/${uploadOfA}`, `?x=%2F${uploadOfA}`, `?/api/files/tus/${uploadOfA}`]) {
      const own = await createTusUpload(server, b, USER_B);
      const url = `/api/files/tus/${own}${query}`;
      const head = await send('HEAD', url);
      if (head.headers.get('upload-offset') !== '0' || head.status !== 200)
        failures.push(`HEAD ${url} → ${head.status}`);
      await expectStatus(`PATCH ${url}`, send('PATCH', url, patch), 204);
      const finished = await send('HEAD', `/api/files/tus/${own}`);
      if (finished.status !== 404) failures.push(`PATCH ${url} did not finish user B's own upload`);
      await expectStatus(`DELETE ${url}`, send('DELETE', url), 404);
    }
    expect(failures).toEqual([]);
    const filesOfB = await readJson<FileRecord[]>(
      await server.fetch(`/api/files/user/${USER_B}`, { headers: { cookie: b } }),
    );
    // Same-name uploads are numbered by the server: matrix.bin, matrix (1).bin, matrix (2).bin.
    expect(filesOfB.filter((file) => /^matrix( \(\d+\))?\.bin$/.test(file.fileName))).toHaveLength(3);

    expect(await filesOfA()).toEqual(filesBefore);
    expect(await stateOfA()).toBe('200 0/4');
  });

  /**
   * Search by caller: what each finds of one workspace's file and folder, the owner's personal file, and a file in a
   * personal folder shared with one person. The route is `user` (anonymous 401); which rows a caller sees is the
   * query's own filter (`readableScope`), so this matrix is over results rather than statuses.
   */
  it('answers search and the bulk zip by caller: owner, editor, viewer, non-member, share recipient, admin', async () => {
    type Caller = Exclude<RoleCaller, 'anonymous' | 'bearer'>;
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'sx');
    const ok = expectJson;
    const put = (who: Caller, query: string, name: string) => upload(who, query, name, name);
    await signInAll();
    const ws = await workspace('Sx team');
    const wsFolder = await ok<{ id: string }>(
      send('owner', 'POST', '/api/folders', { name: 'sxmatrix folder', workspaceId: ws.id }),
      201,
    );
    const wsFile = await put('owner', `?folderId=${wsFolder.id}`, 'sxmatrix-team.txt');
    const personal = await put('owner', '', 'sxmatrix-mine.txt');
    const sharedFolder = await ok<{ id: string }>(send('owner', 'POST', '/api/folders', { name: 'Lent' }), 201);
    const lent = await put('owner', `?folderId=${sharedFolder.id}`, 'sxmatrix-lent.txt');
    await ok(send('owner', 'PUT', `/api/folders/${sharedFolder.id}/shares/${keys.recipient}`, { role: 'viewer' }), 201);

    const all = [wsFolder.id, wsFile.id, personal.id, lent.id];
    const expected: Record<Caller, string[]> = {
      owner: all,
      editor: [wsFolder.id, wsFile.id],
      viewer: [wsFolder.id, wsFile.id],
      nonMember: [],
      recipient: [lent.id],
      // Admins have no role in workspaces they are not in, and search does not reach into personal spaces.
      admin: [],
    };
    const failures: string[] = [];
    for (const [who, ids] of Object.entries(expected) as [Caller, string[]][]) {
      const answer = await send(who, 'GET', '/api/search?q=sxmatrix');
      const found =
        answer.status === 200 ? (await readJson<{ items: { id: string }[] }>(answer)).items.map((i) => i.id) : [];
      if (answer.status !== 200 || JSON.stringify([...found].sort()) !== JSON.stringify([...ids].sort()))
        failures.push(`${who}: ${answer.status} found ${found.length}, expected ${ids.length}`);
    }
    // The bulk zip of the same items: each is authorised (404 when hidden, nothing streamed).
    const zips: Record<Caller, [number, number, number]> = {
      // [the workspace's file and folder, the owner's personal file, the file in the shared folder]
      owner: [200, 200, 200],
      editor: [200, 404, 404],
      viewer: [200, 404, 404],
      nonMember: [404, 404, 404],
      recipient: [404, 404, 200],
      // Admins reach no one's content: neither workspaces they are not in nor personal spaces.
      admin: [404, 404, 404],
    };
    for (const [who, want] of Object.entries(zips) as [Caller, [number, number, number]][]) {
      const bodies = [
        { fileIds: [wsFile.id], folderIds: [wsFolder.id] },
        { fileIds: [personal.id] },
        { fileIds: [lent.id] },
      ];
      for (const [index, body] of bodies.entries()) {
        const answer = await send(who, 'POST', '/api/files/archive', body);
        await answer.arrayBuffer();
        if (answer.status !== want[index])
          failures.push(`archive ${index} as ${who}: ${answer.status}, expected ${want[index]}`);
      }
    }
    expect(failures).toEqual([]);
    expect((await server.fetch('/api/search?q=sxmatrix')).status).toBe(401);
  });
});

/**
 * Consent to membership (docs/PRODUCT.md#workspace-members), with "Members must accept workspace invitations" on:
 * an `invited` caller (invited, not yet accepted) is a non-member everywhere (404) and alone may accept or decline;
 * the owner may withdraw the invitation; the setting itself is the admin's. Each call runs on a fresh workspace
 * (owner, editor, viewer as members, the invited caller invited); a refused call changes nothing.
 */
describe.each(dialects())('consent to membership matrix (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it('answers membership routes by caller: owner, editor, viewer, non-member, invited, admin', async () => {
    const { keys, send, signInAll, workspace } = roleCallers(() => server, 'cm');
    await signInAll();
    type Caller = 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'admin';
    const setting = (membersMustAccept: boolean) =>
      expectJson(send('admin', 'PUT', '/api/admin/settings', { membersMustAccept }));
    async function fixture() {
      await setting(false);
      const ws = await workspace('Consent');
      const root = (await expectJson<{ rootFolderId: string }>(send('owner', 'GET', `/api/workspaces/${ws.id}`)))
        .rootFolderId;
      await setting(true);
      // `recipient` plays the invited person here.
      await expectJson(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys.recipient}`, { role: 'editor' }));
      return { ws: ws.id, root };
    }
    type Fixture = Awaited<ReturnType<typeof fixture>>;
    const snapshot = async (f: Fixture) =>
      JSON.stringify(
        await Promise.all([
          send('owner', 'GET', `/api/workspaces/${f.ws}/members`).then((r) => r.json()),
          send('admin', 'GET', '/api/admin/settings').then((r) => r.json()),
        ]),
      );
    const callers: readonly Caller[] = ['owner', 'editor', 'viewer', 'nonMember', 'recipient', 'admin'];
    const rows: [string, string, (f: Fixture) => string, unknown, number[]][] = [
      ['GET', 'workspace', (f) => `/api/workspaces/${f.ws}`, undefined, [200, 200, 200, 404, 404, 404]],
      ['GET', 'members', (f) => `/api/workspaces/${f.ws}/members`, undefined, [200, 200, 200, 404, 404, 404]],
      ['GET', 'root folder', (f) => `/api/folders/${f.root}`, undefined, [200, 200, 200, 404, 404, 404]],
      ['PATCH', 'rename', (f) => `/api/workspaces/${f.ws}`, { name: 'X' }, [200, 403, 403, 404, 404, 404]],
      ['POST', 'accept', (f) => `/api/workspaces/${f.ws}/membership/accept`, undefined, [404, 404, 404, 404, 200, 404]],
      [
        'POST',
        'decline',
        (f) => `/api/workspaces/${f.ws}/membership/decline`,
        undefined,
        [404, 404, 404, 404, 200, 404],
      ],
      [
        'DELETE',
        'withdraw the invitation',
        (f) => `/api/workspaces/${f.ws}/members/${keys.recipient}`,
        undefined,
        [200, 403, 403, 404, 404, 404],
      ],
      [
        'POST',
        'message to the workspace',
        () => '/public/api/notifications',
        'workspace',
        [200, 403, 403, 404, 404, 200],
      ],
      ['GET', 'settings', () => '/api/admin/settings', undefined, [403, 403, 403, 403, 403, 200]],
      [
        'PUT',
        'change settings',
        () => '/api/admin/settings',
        { membersMustAccept: true },
        [403, 403, 403, 403, 403, 200],
      ],
    ];
    const failures: string[] = [];
    for (const [method, name, urlOf, body, want] of rows) {
      for (const who of ['anonymous', ...callers] as const) {
        const f = await fixture();
        const before = await snapshot(f);
        const payload = body === 'workspace' ? { message: 'matrix', workspaceId: f.ws } : body;
        const response = await send(who, method, urlOf(f), payload);
        await judge(failures, `${method} ${name} as ${who}`, response, expectedOf(who, callers, want), {
          before,
          snapshot: () => snapshot(f),
        });
      }
    }
    await setting(false);
    expect(failures).toEqual([]);
  }, 180_000);
});

/**
 * Admin vs content: the admin role manages people, not content (docs/PRODUCT.md#roles-and-permissions). The built-in
 * admin and an identity-provider admin get the 404 of an unknown id on every route that reads or changes a file or a
 * folder of alice's personal space (a private folder and a file in it), and the `{userId}` paths' 403 on her owner
 * key; a refused call changes nothing (she still has the file, byte for byte, unshared, unlinked, where it was).
 */
describe.each(dialects())('admin vs content (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it("answers the built-in admin and an OIDC admin 404 on alice's personal file and folders", async () => {
    const alice = await server.signInAs({ owner_key: 'avc-alice' });
    await server.signInAs({ owner_key: 'avc-mallory' });
    const admins = {
      builtIn: await server.signInAs({ owner_key: 'admin', role: 'admin' }),
      oidc: await server.signInAs({
        owner_key: 'avc-idp-admin',
        role: 'admin',
        oidc_issuer: 'https://idp.example.test',
        oidc_subject: 'sub-avc-idp-admin',
      }),
    };
    const ok = expectJson;
    const failures: string[] = [];
    for (const [who, cookie] of Object.entries(admins)) {
      // Fresh for each admin: a private folder with a subfolder and a file.
      const folder = await ok<{ id: string }>(
        sendJson(server, alice, 'POST', '/api/folders', { name: `Private ${who}` }),
        201,
      );
      const inner = await ok<{ id: string }>(
        sendJson(server, alice, 'POST', '/api/folders', { name: 'Inner', parentId: folder.id }),
        201,
      );
      const file = await ok<FileRecord>(uploadFile(server, alice, `?folderId=${folder.id}`, 'diary.txt', 'dear diary'));
      const id = file.id;
      const [own] = await ok<{ rootFolderId: string }[]>(sendJson(server, cookie, 'GET', '/api/spaces'));
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/files/download/${id}`],
        ['GET', `/api/files/${id}`],
        ['GET', `/api/files/${id}/details`],
        ['GET', `/api/files/${id}/thumbnail`],
        ['GET', `/api/files/${id}/versions`],
        ['GET', `/api/files/${id}/insights`],
        ['GET', `/api/files/${id}/shares`],
        ['PUT', `/api/files/${id}/shares/avc-mallory`, { role: 'editor' }],
        ['POST', '/api/links', { fileId: id }],
        ['PATCH', `/api/files/${id}`, { folderId: own?.rootFolderId }],
        ['PATCH', `/api/files/${id}`, { fileName: 'mine.txt' }],
        ['DELETE', `/api/files/user/${id}`],
        ['POST', '/api/files/archive', { fileIds: [id] }],
        ['GET', `/api/folders/${folder.id}`],
        ['GET', `/api/folders/${inner.id}`],
        ['PATCH', `/api/folders/${inner.id}`, { name: 'Taken' }],
        ['DELETE', `/api/folders/${inner.id}`],
        ['GET', `/api/folders/${folder.id}/shares`],
        ['PUT', `/api/folders/${folder.id}/shares/avc-mallory`, { role: 'editor' }],
        ['POST', '/api/links', { folderId: folder.id }],
        ['POST', '/api/files/archive', { folderIds: [folder.id] }],
      ];
      for (const [method, url, body] of calls) {
        const answer = await sendJson(server, cookie, method, url, body);
        await answer.arrayBuffer();
        if (answer.status !== 404) failures.push(`${who} ${method} ${url}: ${answer.status}, expected 404`);
      }
      // The `{userId}` paths name a person (no secret): the 403 of another person's space.
      for (const [method, url] of [
        ['GET', '/api/files/user/avc-alice'],
        ['GET', '/api/files/user-stats/avc-alice'],
      ] as const) {
        const answer = await sendJson(server, cookie, method, url);
        if (answer.status !== 403 || (await readError(answer)).message !== 'You can only access your own files.')
          failures.push(`${who} ${method} ${url}: ${answer.status}, expected 403`);
      }
      const upload = await uploadFile(server, cookie, '?userId=avc-alice', 'planted.txt', 'x');
      if (upload.status !== 403) failures.push(`${who} upload ?userId=avc-alice: ${upload.status}, expected 403`);
      const tus = await server.fetch('/api/files/tus', {
        method: 'POST',
        headers: {
          ...TUS_HEADERS,
          cookie,
          'upload-length': '4',
          'upload-metadata': `filename ${b64('planted.bin')},userId ${b64('avc-alice')}`,
        },
      });
      await tus.body?.cancel();
      if (tus.status !== 403) failures.push(`${who} tus upload for avc-alice: ${tus.status}, expected 403`);
      const search = await ok<{ items: unknown[] }>(sendJson(server, cookie, 'GET', '/api/search?q=diary'));
      if (search.items.length !== 0) failures.push(`${who} search found ${search.items.length}`);
      expect(failures).toEqual([]);
      // Nothing changed: alice has her file where it was, byte for byte, unshared and unlinked, and her folders.
      const download = await sendJson(server, alice, 'GET', `/api/files/download/${id}`);
      expect(download.status).toBe(200);
      expect(await download.text()).toBe('dear diary');
      const listing = await ok<{ folders: { name: string }[]; files: { id: string; fileName: string }[] }>(
        sendJson(server, alice, 'GET', `/api/folders/${folder.id}`),
      );
      expect(listing.folders.map((f) => f.name)).toEqual(['Inner']);
      expect(listing.files.map((f) => [f.id, f.fileName])).toEqual([[id, 'diary.txt']]);
      const shares = await ok<{ shares: unknown[] }>(sendJson(server, alice, 'GET', `/api/files/${id}/shares`));
      expect(shares.shares).toEqual([]);
      for (const query of [`fileId=${id}`, `folderId=${folder.id}`])
        expect(await ok<unknown[]>(sendJson(server, alice, 'GET', `/api/links?${query}`))).toEqual([]);
    }
    expect(failures).toEqual([]);
  });

  it('answers Transfer files for admins only: anonymous 401, a user 403, nothing moved; an admin 200', async () => {
    const owner = await server.signInAs({ owner_key: 'avc-leaver' });
    const recipient = await server.signInAs({ owner_key: 'avc-heir' });
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const file = await expectJson<FileRecord>(uploadFile(server, owner, '', 'left.txt', 'left'));
    await expectJson(sendJson(server, admin, 'PATCH', '/api/admin/users/avc-leaver', { disabled: true }));
    const body = { toUserId: 'avc-heir' };
    const url = '/api/admin/users/avc-leaver/transfer';
    expect((await sendJson(server, undefined, 'POST', url, body)).status).toBe(401);
    for (const cookie of [recipient, await server.signInAs({ owner_key: 'avc-mallory' })]) {
      const refused = await sendJson(server, cookie, 'POST', url, body);
      expect(refused.status).toBe(403);
      expect((await readError(refused)).message).toBe('Only admins can manage users.');
    }
    expect((await sendJson(server, recipient, 'GET', `/api/files/${file.id}`)).status).toBe(404);
    await expectJson(sendJson(server, admin, 'POST', url, body));
    expect((await sendJson(server, recipient, 'GET', `/api/files/${file.id}`)).status).toBe(200);
  });
});

/**
 * Moving out of a space: `PATCH /api/files/{id} { folderId }` into the caller's own personal root, by caller, for a
 * workspace file and for a personal file shared with the recipient as editor. Only the source space's owner moves
 * a file out (docs/PRODUCT.md#workspaces-and-folders); editors — members or share recipients — and viewers get 403,
 * anyone who cannot see the file 404. A refused move leaves the file where it was.
 */
describe.each(dialects())('moving out of a space (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it('answers a move out of the space by caller: owner, editor, viewer, non-member, share editor, admin', async () => {
    type Caller = Exclude<RoleCaller, 'anonymous' | 'bearer'>;
    const { keys, send, upload, signInAll, workspace } = roleCallers(() => server, 'mv');
    await signInAll();
    const ws = await workspace('Mv team');
    const inWorkspace = await upload('owner', `?workspaceId=${ws.id}`, 'team.txt', 'team');
    const personal = await upload('owner', '', 'mine.txt', 'mine');
    await expectJson(
      send('owner', 'PUT', `/api/files/${personal.id}/shares/${keys.recipient}`, { role: 'editor' }),
      201,
    );
    const wsRoot = (await expectJson<{ rootFolderId: string }>(send('owner', 'GET', `/api/workspaces/${ws.id}`)))
      .rootFolderId;
    const rootOf = async (who: Caller) =>
      (await expectJson<{ rootFolderId: string }[]>(send(who, 'GET', '/api/spaces')))[0]?.rootFolderId ?? '';
    const placeOf = async (id: string) =>
      JSON.stringify((await expectJson<FileDetails>(send('owner', 'GET', `/api/files/${id}/details`))).location);
    // The owner last: their move succeeds and takes the file away.
    const callers = ['editor', 'viewer', 'nonMember', 'recipient', 'admin', 'owner'] as const;
    const cases: { label: string; id: string; want: readonly number[] }[] = [
      // editor, viewer, non-member, recipient, admin, owner
      { label: 'workspace file', id: inWorkspace.id, want: [403, 403, 404, 404, 404, 200] },
      {
        label: 'personal file shared with the recipient as editor',
        id: personal.id,
        want: [404, 404, 404, 403, 404, 200],
      },
    ];
    const failures: string[] = [];
    for (const { label, id, want } of cases) {
      const before = await placeOf(id);
      for (const who of callers) {
        // The owner moves the workspace file home, and their personal file into the workspace.
        const target = who === 'owner' && id === personal.id ? wsRoot : await rootOf(who);
        const response = await send(who, 'PATCH', `/api/files/${id}`, { folderId: target });
        await judge(failures, `${label} moved out by ${who}`, response, expectedOf(who, callers, want), {
          before,
          snapshot: () => placeOf(id),
          changed: 'moved it',
        });
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * WebDAV by caller (docs/PRODUCT.md#webdav): every method on a workspace file and folder and on items shared with a
 * person and with a workspace, through both path forms (`/remote.php/dav/files/{ownerKey}/…` and `/dav/…`, HTTP Basic
 * on each), as anonymous, the workspace's owner, editor and viewer, a non-member, a person share's recipient, a
 * workspace share's recipient (a member of the workspace it was shared with), an admin, a public link's bearer (its
 * token is no password), a local account's person (an app password of theirs; their account password is refused)
 * and a revoked app password. The same rules as the app's: the owner, the editors and the local editor each use an
 * app password of their own.
 */
describe.each(dialects())('WebDAV matrix (%s)', (dialect) => {
  type Caller =
    | 'anonymous'
    | 'owner'
    | 'editor'
    | 'viewer'
    | 'nonMember'
    | 'recipient'
    | 'wsRecipient'
    | 'admin'
    | 'bearer'
    | 'localUser'
    | 'revoked';
  const CALLERS: Caller[] = [
    'anonymous',
    'owner',
    'editor',
    'viewer',
    'nonMember',
    'recipient',
    'wsRecipient',
    'admin',
    'bearer',
    'localUser',
    'revoked',
  ];
  type Form = 'remote' | 'dav';
  const LOCAL_PASSWORD = 'amber-lighthouse-morning-47';
  const LOCKINFO =
    '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>';
  const basic = (user: string, password: string) => `Basic ${b64(`${user}:${password}`)}`;
  let server: TestServer;
  const auth = {} as Record<Caller, { header: string | undefined; key: string }>;
  let heldToken = '';
  let localAccountHeader = '';

  /** An app password of the person behind `cookie` (owner key `key`): the Basic header. */
  async function appPassword(cookie: string, key: string) {
    const made = await expectJson<{ id: string; password: string }>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'dav matrix' }),
      201,
    );
    return { header: basic(key, made.password), id: made.id };
  }

  beforeAll(async () => {
    // The refused passwords count on the sign-in counters of 127.0.0.1: room for this many calls.
    server = await startTestServer({
      dialect,
      env: { LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_USERNAME: '100000' },
    });
    const admin = await server.signInAs({ owner_key: 'dm-admin', role: 'admin' });
    // A local account: made by the admin, its password set through the link, signed in with it.
    const local = await expectJson<{ url: string }>(
      sendJson(server, admin, 'POST', '/api/admin/users', { username: 'dm-local', name: 'Local Lou' }),
      201,
    );
    const resetToken = local.url.split('/reset-password/')[1] ?? '';
    await expectJson(
      sendJson(server, undefined, 'POST', `/api/public/password-reset/${resetToken}`, { password: LOCAL_PASSWORD }),
    );
    const login = await sendJson(server, undefined, 'POST', '/api/auth/login', {
      username: 'dm-local',
      password: LOCAL_PASSWORD,
    });
    expect(login.status).toBe(200);
    const localCookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    localAccountHeader = basic('dm-local', LOCAL_PASSWORD);

    const cookies = {} as Record<Caller, string>;
    for (const who of CALLERS) {
      if (who === 'anonymous' || who === 'bearer') continue;
      const key = who === 'localUser' ? 'dm-local' : who === 'admin' ? 'dm-admin' : `dm-${who}`;
      const cookie =
        who === 'localUser' ? localCookie : who === 'admin' ? admin : await server.signInAs({ owner_key: key });
      cookies[who] = cookie;
      const made = await appPassword(cookie, key);
      if (who === 'revoked') await sendJson(server, cookie, 'DELETE', `/api/me/app-passwords/${made.id}`);
      auth[who] = { header: made.header, key };
    }
    auth.anonymous = { header: undefined, key: 'dm-owner' };
    const owner = cookies.owner;
    const ws = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/workspaces', { name: 'DavTeam' }),
      201,
    );
    for (const [who, role] of [
      ['dm-editor', 'editor'],
      ['dm-viewer', 'viewer'],
      ['dm-local', 'editor'],
    ] as const) {
      await expectJson(sendJson(server, owner, 'PUT', `/api/workspaces/${ws.id}/members/${who}`, { role }));
    }
    const partners = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/workspaces', { name: 'Partners' }),
      201,
    );
    await expectJson(
      sendJson(server, owner, 'PUT', `/api/workspaces/${partners.id}/members/dm-wsRecipient`, { role: 'viewer' }),
    );
    const shareMe = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/folders', { name: 'ShareMe' }),
      201,
    );
    await expectJson(
      sendJson(server, owner, 'PUT', `/api/folders/${shareMe.id}/shares/dm-recipient`, { role: 'viewer' }),
      201,
    );
    const shareWs = await expectJson<{ id: string }>(
      sendJson(server, owner, 'POST', '/api/folders', { name: 'ShareWs' }),
      201,
    );
    await expectJson(
      sendJson(server, owner, 'PUT', `/api/folders/${shareWs.id}/shares/workspaces/${partners.id}`, { role: 'editor' }),
      201,
    );
    const put = async (path: string, body: string) => {
      const response = await server.fetch(`/remote.php/dav/files/dm-owner/${path}`, {
        method: 'PUT',
        headers: { authorization: auth.owner.header ?? '' },
        body,
      });
      expect(response.status).toBe(201);
      return response.headers.get('oc-fileid') ?? '';
    };
    const docId = await put('Workspaces/DavTeam/doc.txt', 'team doc');
    await put('Workspaces/DavTeam/held.txt', 'held');
    await put('Personal/ShareMe/s.txt', 'shared doc');
    await put('Personal/ShareWs/w.txt', 'workspace-shared doc');
    // A public link's bearer holds its token: as a password it opens nothing.
    const link = await expectJson<{ token: string }>(
      sendJson(server, owner, 'POST', '/api/links', { fileId: docId }),
      201,
    );
    auth.bearer = { header: basic('dm-owner', link.token), key: 'dm-owner' };
  });
  afterAll(async () => server?.close());

  const base = (who: Caller, form: Form) => (form === 'dav' ? '/dav' : `/remote.php/dav/files/${auth[who].key}`);
  const call = (
    who: Caller,
    form: Form,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    server.fetch(`${base(who, form)}/${path}`, {
      method,
      headers: { ...(auth[who].header ? { authorization: auth[who].header } : {}), ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const destination = (who: Caller, form: Form, path: string) => ({
    destination: `${server.url}${base(who, form)}/${path}`,
  });

  // Expected status per caller, in CALLERS' order: anonymous, owner, editor, viewer, non-member, recipient,
  // workspace recipient, admin, bearer, local user, revoked. `t` tells the callers' and forms' items apart.
  type Row = [string, (who: Caller, form: Form, t: string) => Promise<Response>, number[]];
  const rows: Row[] = [
    [
      'PROPFIND file',
      (w, f) => call(w, f, 'PROPFIND', 'Workspaces/DavTeam/doc.txt', { depth: '0' }),
      [401, 207, 207, 207, 404, 404, 404, 404, 401, 207, 401],
    ],
    [
      'PROPFIND folder',
      (w, f) => call(w, f, 'PROPFIND', 'Workspaces/DavTeam/', { depth: '1' }),
      [401, 207, 207, 207, 404, 404, 404, 404, 401, 207, 401],
    ],
    [
      'GET',
      (w, f) => call(w, f, 'GET', 'Workspaces/DavTeam/doc.txt'),
      [401, 200, 200, 200, 404, 404, 404, 404, 401, 200, 401],
    ],
    [
      'HEAD',
      (w, f) => call(w, f, 'HEAD', 'Workspaces/DavTeam/doc.txt'),
      [401, 200, 200, 200, 404, 404, 404, 404, 401, 200, 401],
    ],
    [
      'PUT new',
      (w, f, t) => call(w, f, 'PUT', `Workspaces/DavTeam/new-${t}.txt`, {}, 'x'),
      [401, 201, 201, 403, 409, 409, 409, 409, 401, 201, 401],
    ],
    [
      'PUT replace',
      (w, f) => call(w, f, 'PUT', 'Workspaces/DavTeam/doc.txt', {}, 'team doc'),
      [401, 204, 204, 403, 409, 409, 409, 409, 401, 204, 401],
    ],
    [
      'MKCOL',
      (w, f, t) => call(w, f, 'MKCOL', `Workspaces/DavTeam/dir-${t}`),
      [401, 201, 201, 403, 409, 409, 409, 409, 401, 201, 401],
    ],
    [
      'PROPPATCH',
      (w, f) =>
        call(
          w,
          f,
          'PROPPATCH',
          'Workspaces/DavTeam/doc.txt',
          { 'content-type': 'application/xml' },
          '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><x:k xmlns:x="urn:x">v</x:k></d:prop></d:set></d:propertyupdate>',
        ),
      [401, 207, 207, 403, 404, 404, 404, 404, 401, 207, 401],
    ],
    [
      'COPY',
      (w, f, t) =>
        call(w, f, 'COPY', 'Workspaces/DavTeam/doc.txt', destination(w, f, `Workspaces/DavTeam/copy-${t}.txt`)),
      [401, 201, 201, 403, 404, 404, 404, 404, 401, 201, 401],
    ],
    [
      'MOVE',
      (w, f, t) =>
        call(w, f, 'MOVE', `Workspaces/DavTeam/copy-${t}.txt`, destination(w, f, `Workspaces/DavTeam/moved-${t}.txt`)),
      [401, 201, 201, 404, 404, 404, 404, 404, 401, 201, 401],
    ],
    [
      'MOVE doc, then back',
      async (w, f, t) => {
        const moved = await call(
          w,
          f,
          'MOVE',
          'Workspaces/DavTeam/doc.txt',
          destination(w, f, `Workspaces/DavTeam/gone-${t}.txt`),
        );
        if (moved.status === 201) {
          const back = await call(
            w,
            f,
            'MOVE',
            `Workspaces/DavTeam/gone-${t}.txt`,
            destination(w, f, 'Workspaces/DavTeam/doc.txt'),
          );
          expect(back.status).toBe(201);
        }
        return moved;
      },
      [401, 201, 201, 403, 404, 404, 404, 404, 401, 201, 401],
    ],
    [
      'LOCK doc, then UNLOCK',
      async (w, f) => {
        const locked = await call(
          w,
          f,
          'LOCK',
          'Workspaces/DavTeam/doc.txt',
          { depth: '0', timeout: 'Second-60' },
          LOCKINFO,
        );
        if (locked.status === 200) {
          const token = locked.headers.get('lock-token') ?? '';
          expect((await call(w, f, 'UNLOCK', 'Workspaces/DavTeam/doc.txt', { 'lock-token': token })).status).toBe(204);
        }
        return locked;
      },
      // Where the caller sees no folder, a LOCK would make an empty file in a folder that is not there: 409.
      [401, 200, 200, 403, 409, 409, 409, 409, 401, 200, 401],
    ],
    [
      // The owner's lock (taken below): its token opens nothing for anyone else, who cannot remove it or write.
      'UNLOCK the owner’s lock',
      (w, f) => call(w, f, 'UNLOCK', 'Workspaces/DavTeam/held.txt', { 'lock-token': `<${heldToken}>` }),
      [401, 204, 403, 403, 409, 409, 409, 409, 401, 403, 401],
    ],
    [
      'DELETE',
      (w, f, t) => call(w, f, 'DELETE', `Workspaces/DavTeam/moved-${t}.txt`),
      [401, 204, 204, 404, 404, 404, 404, 404, 401, 204, 401],
    ],
    [
      // The editor deletes it: the local user and the owner, after them, find it gone.
      'DELETE doc',
      (w, f) => call(w, f, 'DELETE', 'Workspaces/DavTeam/doc.txt'),
      [401, 404, 204, 403, 404, 404, 404, 404, 401, 404, 401],
    ],
    [
      'GET person-shared',
      (w, f) => call(w, f, 'GET', 'Shared with me/ShareMe/s.txt'),
      [401, 404, 404, 404, 404, 200, 404, 404, 401, 404, 401],
    ],
    [
      'PUT into person-shared (viewer)',
      (w, f, t) => call(w, f, 'PUT', `Shared with me/ShareMe/n-${t}.txt`, {}, 'x'),
      [401, 409, 409, 409, 409, 403, 409, 409, 401, 409, 401],
    ],
    [
      'GET workspace-shared',
      (w, f) => call(w, f, 'GET', 'Shared with me/ShareWs/w.txt'),
      [401, 404, 404, 404, 404, 404, 200, 404, 401, 404, 401],
    ],
    [
      'PUT into workspace-shared (editor)',
      (w, f, t) => call(w, f, 'PUT', `Shared with me/ShareWs/n-${t}.txt`, {}, 'x'),
      [401, 409, 409, 409, 409, 409, 201, 409, 401, 409, 401],
    ],
  ];

  it('answers every method, on both path forms, by every kind of caller as the app’s policies do', async () => {
    const failures: string[] = [];
    for (const form of ['remote', 'dav'] as const) {
      // The owner's lock on held.txt, for the UNLOCK row.
      const held = await call('owner', form, 'LOCK', 'Workspaces/DavTeam/held.txt', { depth: '0' }, LOCKINFO);
      expect(held.status).toBe(200);
      heldToken = /<([^>]+)>/.exec(held.headers.get('lock-token') ?? '')?.[1] ?? '';
      for (const [label, send, expected] of rows) {
        // DELETE doc removes the file and the owner's UNLOCK ends the lock: the owner goes last.
        const order: Caller[] = [
          'anonymous',
          'viewer',
          'nonMember',
          'recipient',
          'wsRecipient',
          'admin',
          'bearer',
          'revoked',
          'editor',
          'localUser',
          'owner',
        ];
        for (const who of order) {
          const response = await send(who, form, `${who}-${form}`);
          await response.body?.cancel();
          const want = expected[CALLERS.indexOf(who)];
          const where = `${label} (${form}) as ${who}`;
          if (response.status !== want) failures.push(`${where}: ${response.status}, expected ${want}`);
          if (
            response.status === 401 &&
            !response.headers.get('www-authenticate')?.startsWith('Basic realm="Atrium"')
          ) {
            failures.push(`${where}: 401 without the Basic challenge`);
          }
        }
      }
      // Put the deleted doc back for the next form.
      expect((await call('owner', form, 'PUT', 'Workspaces/DavTeam/doc.txt', {}, 'team doc')).status).toBe(201);
    }
    expect(failures).toEqual([]);
  });

  it('refuses a local account’s own password, a link token in any form, and another person’s path', async () => {
    const propfind = (path: string, headers: Record<string, string>) =>
      server.fetch(path, { method: 'PROPFIND', headers: { depth: '0', ...headers } });
    for (const path of ['/remote.php/dav/files/dm-local/', '/dav/']) {
      expect((await propfind(path, { authorization: localAccountHeader })).status).toBe(401);
      expect((await propfind(path, { authorization: auth.localUser.header ?? '' })).status).toBe(207);
    }
    const token =
      Buffer.from((auth.bearer.header ?? '').slice(6), 'base64')
        .toString()
        .split(':')[1] ?? '';
    for (const headers of [
      { authorization: `Bearer ${token}` },
      { authorization: basic(token, '') },
      { authorization: basic(token, token) },
    ]) {
      for (const path of ['/remote.php/dav/files/dm-owner/', '/dav/']) {
        expect((await propfind(path, headers)).status).toBe(401);
      }
    }
    for (const method of ['PROPFIND', 'GET', 'PUT', 'MKCOL', 'DELETE', 'COPY', 'MOVE', 'PROPPATCH', 'LOCK', 'UNLOCK']) {
      for (const who of ['editor', 'admin', 'localUser'] as const) {
        const response = await server.fetch('/remote.php/dav/files/dm-owner/Personal/ShareMe/s.txt', {
          method,
          headers: { authorization: auth[who].header ?? '', depth: '0' },
        });
        await response.body?.cancel();
        expect(response.status, `${method} as ${who}`).toBe(403);
      }
    }
  });

  it('lists only what the caller may read', async () => {
    const list = async (who: Caller, path: string) =>
      (await call(who, 'remote', 'PROPFIND', path, { depth: '1' })).text();
    expect(await list('viewer', 'Workspaces/')).toContain('/Workspaces/DavTeam/');
    expect(await list('nonMember', 'Workspaces/')).not.toContain('DavTeam');
    expect(await list('admin', 'Workspaces/')).not.toContain('DavTeam');
    expect(await list('recipient', 'Shared with me/')).toContain('/Shared%20with%20me/ShareMe/');
    expect(await list('wsRecipient', 'Shared with me/')).toContain('/Shared%20with%20me/ShareWs/');
    for (const name of ['ShareMe', 'ShareWs']) expect(await list('nonMember', 'Shared with me/')).not.toContain(name);
    expect(await list('recipient', 'Shared with me/')).not.toContain('ShareWs');
  });

  it('takes the session cookie on /dav/ only, and refuses a cross-site change', async () => {
    const cookie = await server.signInAs({ owner_key: 'dm-editor' });
    const own = await server.fetch('/dav/Workspaces/DavTeam/', { method: 'PROPFIND', headers: { cookie, depth: '1' } });
    expect(own.status).toBe(207);
    const crossSite = await server.fetch('/dav/Workspaces/DavTeam/evil', {
      method: 'MKCOL',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const remote = await server.fetch('/remote.php/dav/files/dm-editor/', {
      method: 'PROPFIND',
      headers: { cookie, depth: '0' },
    });
    expect(remote.status).toBe(401);
  });
});
