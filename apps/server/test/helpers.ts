import { ErrorResponse, type MeResponse } from '@atrium/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOverrides } from '../src/app';
import { openDatabase, type Db } from '../src/db';
import { loadConfig, type Config } from '../src/config';
import { SESSION_COOKIE } from '../src/plugins/session';
import { createSessionService } from '../src/modules/auth/sessions.service';
import { createUsersRepository, type UserRow } from '../src/modules/auth/users.repository';
import { systemClock } from '../src/lib/time';

/** Which database the integration suite runs against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dialects = (): ('sqlite' | 'postgres')[] =>
  process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

/** Creates an empty PostgreSQL database for one test server and returns its URL and a drop function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `atrium_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  /** The PostgreSQL database URL, for a second instance sharing it (undefined on SQLite). */
  databaseUrl: string | undefined;
  /** fetch against the test server; `path` starts with '/'. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  /** Creates a user (if needed) and a session; returns a Cookie header value. */
  signInAs(user: Partial<UserRow> & { owner_key: string }): Promise<string>;
  close(): Promise<void>;
}

export interface StartOptions {
  dialect?: 'sqlite' | 'postgres';
  env?: Record<string, string>;
  overrides?: AppOverrides;
  /** Reuse a data folder (e.g. to test restarts); a new temp folder otherwise. */
  dataDir?: string;
  /** Reuse a PostgreSQL database URL (e.g. two instances sharing one database). */
  databaseUrl?: string;
  /** Start without PUBLIC_URL, as a newcomer would (the site's origin then comes from each request). */
  withoutPublicUrl?: boolean;
  /** Called after the app is built and before it listens, e.g. to add a test-only route. */
  setup?: (app: FastifyInstance) => void;
}

/** A free loopback port, so PUBLIC_URL (CSRF origin, OIDC issuer and callbacks) can name the real address. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the real server on a random loopback port with a fresh data folder and database. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'atrium-test-'));
  const ownsDataDir = !options.dataDir;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl && options.dialect === 'postgres') {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const port = options.env?.PORT ?? String(await freePort());
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: port,
    ...(options.withoutPublicUrl ? {} : { PUBLIC_URL: `http://127.0.0.1:${port}` }),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    WEB_DIST: path.join(dataDir, 'no-web-dist'),
    // Background analysis would load the AI models for every image a test uploads: on where a test asks for it.
    ANALYSIS_ENABLED: 'false',
    // Likewise background thumbnails (tests that count blobs would race them): on where a test asks for it.
    THUMBNAILS_IN_BACKGROUND: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const app = await buildApp(config, { logger: false, ...options.overrides });
  options.setup?.(app);
  await app.listen({ host: '127.0.0.1', port: Number(port) });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
  const url = `http://127.0.0.1:${address.port}`;
  const clock = options.overrides?.clock ?? systemClock;
  const users = createUsersRepository(app.database.db, clock);
  const sessions = createSessionService({
    db: app.database.db,
    clock,
    idleMs: config.session.idleMs,
    absoluteMs: config.session.absoluteMs,
  });

  return {
    app,
    config,
    url,
    dataDir,
    databaseUrl,
    fetch: (pathname, init) => fetch(`${url}${pathname}`, init),
    async signInAs(user) {
      const existing = await users.findByOwnerKey(user.owner_key);
      const row =
        existing ??
        (await users.insert({
          name: user.name ?? user.owner_key,
          nickname: user.nickname ?? user.owner_key,
          email: user.email ?? `${user.owner_key}@example.test`,
          picture: user.picture ?? null,
          role: user.role ?? 'user',
          oidc_issuer: user.oidc_issuer ?? null,
          oidc_subject: user.oidc_subject ?? null,
          owner_key: user.owner_key,
        }));
      const token = await sessions.create(row.id);
      return `${SESSION_COOKIE}=${token}`;
    },
    async close() {
      await app.close();
      if (dropDatabase) await dropDatabase();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs a user in on a PostgreSQL database that running instances share (the scale-out topology has no identity
 * provider in production): creates the user if needed and a session; returns a Cookie header value.
 */
export async function signInDirectly(databaseUrl: string, ownerKey: string): Promise<string> {
  const handle = openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    const users = createUsersRepository(handle.db, systemClock);
    const row =
      (await users.findByOwnerKey(ownerKey)) ??
      (await users.insert({
        name: ownerKey,
        nickname: ownerKey,
        email: `${ownerKey}@example.test`,
        picture: null,
        role: 'user',
        oidc_issuer: 'https://idp.example.test/',
        oidc_subject: ownerKey,
        owner_key: ownerKey,
      }));
    const sessions = createSessionService({
      db: handle.db,
      clock: systemClock,
      idleMs: 3_600_000,
      absoluteMs: 86_400_000,
    });
    return `${SESSION_COOKIE}=${await sessions.create(row.id)}`;
  } finally {
    await handle.close();
  }
}

/**
 * Signs in each of `keys` as a person who came through the identity provider (named `name(key)`), and the
 * built-in `admin`; returns their cookies by owner key (`admin` too).
 */
export async function signInPeople(
  server: TestServer,
  keys: string[],
  name: (key: string) => string = (key) => key,
): Promise<Record<string, string>> {
  const cookies: Record<string, string> = {};
  for (const key of keys) {
    cookies[key] = await server.signInAs({
      owner_key: key,
      name: name(key),
      oidc_issuer: 'https://idp.example.test',
      oidc_subject: `sub-${key}`,
    });
  }
  cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  return cookies;
}

/** A request to a test server with a JSON body (when given), as `cookie` (none: anonymous); `headers` add to it. */
export const sendJson = (
  server: TestServer,
  cookie: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> =>
  server.fetch(path, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Reads a JSON answer as T, failing loudly when the status is not `status` (for a test's own set-up calls). */
export async function expectJson<T>(response: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await response;
  if (answer.status !== status) throw new Error(`${answer.status}: ${await answer.text()}`);
  return readJson<T>(answer);
}

/**
 * JSON calls to a test server as named people (`cookies[who]`), and readers that fail loudly on an unexpected
 * status. `server` is a getter: suites start their server in `beforeAll`.
 */
export function callsAs(server: () => TestServer, cookies: Record<string, string>) {
  return {
    call: (who: string, method: string, path: string, body?: unknown) =>
      sendJson(server(), cookies[who], method, path, body),
    json: expectJson,
    /** `POST /api/files/upload<query>` of `content` as `name` (multipart, JSON answer). */
    upload: (who: string, query: string, name: string, content: string | Uint8Array) =>
      uploadFile(server(), cookies[who], query, name, content),
  };
}

/** Uploads `content` as `name` through `POST /api/files/upload{query}` as the cookie's user, asking for JSON. */
export function uploadFile(
  server: TestServer,
  cookie: string | undefined,
  query: string,
  name: string,
  content: string | Uint8Array,
) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return server.fetch(`/api/files/upload${query}`, {
    method: 'POST',
    headers: { cookie: cookie ?? '', accept: 'application/json' },
    body: form,
  });
}

/** `GET /api/me` as the cookie's user, which must answer 200: the signed-in user. */
export const fetchMe = (server: TestServer, cookie: string): Promise<MeResponse> =>
  expectJson<MeResponse>(server.fetch('/api/me', { headers: { cookie } }));

/** The id of the user with owner key `ownerKey` (signed in before), for rows a test writes straight to the database. */
export const userIdOf = async (server: TestServer, ownerKey: string): Promise<string> =>
  (
    await server.app.database.db
      .selectFrom('users')
      .select('id')
      .where('owner_key', '=', ownerKey)
      .executeTakeFirstOrThrow()
  ).id;

/** Reads a JSON body as T (tests then assert on it). */
export const readJson = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** Reads a JSON error body, checking that it has the project's error shape. */
export const readError = async (response: Response): Promise<ErrorResponse['error']> =>
  ErrorResponse.parse(await response.json()).error;

/** One answer of `inParallel`, its body read whole (no connection is left holding an unread body). */
export interface ParallelAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/** How many answers got each status, e.g. `{ 201: 10, 429: 3 }`. */
export const statusCounts = (answers: { status: number }[]): Record<number, number> => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
};

/**
 * Sends `count` requests at once (`send(i)` starts the i-th) and answers them all, bodies read, once every one has
 * answered: for the tests that a limit holds against parallel requests.
 */
export const inParallel = (count: number, send: (i: number) => Promise<Response>): Promise<ParallelAnswer[]> =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const answer = await send(i);
      return { status: answer.status, headers: answer.headers, body: await answer.text() };
    }),
  );

/** Signs in an admin and creates an API key for the AI compatibility routes; returns the key. */
export async function createAiApiKey(server: TestServer): Promise<string> {
  const admin = await server.signInAs({ owner_key: 'key-admin', role: 'admin' });
  const created = await server.fetch('/api/ai/keys', {
    method: 'POST',
    headers: { cookie: admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'test' }),
  });
  return ((await created.json()) as { key: string }).key;
}

export interface RawExchange {
  socket: net.Socket;
  /** Everything the server sent so far. */
  answer(): string;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

/** Opens a connection and writes `head` (request line and headers) and `body` as given, nothing more. */
export async function rawRequest(server: TestServer, head: string, body: Buffer | string = ''): Promise<RawExchange> {
  const url = new URL(server.url);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`${head.replace(/\n/g, '\r\n')}Host: ${url.host}\r\n\r\n`);
  if (body.length > 0) socket.write(body);
  return { socket, answer: () => answer, closed };
}

/**
 * A person with one face on `fileId`, written straight into the database as face analysis would place them (the
 * local face engine needs real photos): `spaceKey` is a workspace id or `personal:<owner key>`.
 */
export async function placePersonWithFace(
  db: Db,
  place: { fileId: string; spaceKey: string; workspaceId: string | null; personId: string; faceId: string },
  box = 0.2,
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('people')
    .values({
      id: place.personId,
      space_key: place.spaceKey,
      workspace_id: place.workspaceId,
      name: null,
      cover_face_id: place.faceId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('faces')
    .values({
      id: place.faceId,
      file_id: place.fileId,
      space_key: place.spaceKey,
      person_id: place.personId,
      box_left: 0.1,
      box_top: 0.1,
      box_width: box,
      box_height: box,
      descriptor: JSON.stringify(Array.from({ length: 128 }, () => 0)),
      created_at: now,
    })
    .execute();
}
