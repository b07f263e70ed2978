import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  dialects,
  fetchMe,
  readError,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';
import { openDatabase } from '../../db';
import { migrations } from '../../db/migrations';

const json = { 'content-type': 'application/json' };

describe.each(dialects())('first sign-in per user (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  const me = (cookie: string) => fetchMe(server, cookie);
  const complete = (cookie?: string) =>
    server.fetch('/api/me/first-login', { method: 'POST', headers: cookie ? { cookie } : {} });

  it('is due for each new user until that user records it, in every browser', async () => {
    const bob = await server.signInAs({ owner_key: 'bob' });
    const carol = await server.signInAs({ owner_key: 'carol' });
    expect(await me(bob)).toMatchObject({ ownerKey: 'bob', firstLogin: true });
    expect(await me(carol)).toMatchObject({ ownerKey: 'carol', firstLogin: true });

    const done = await complete(bob);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ ownerKey: 'bob', firstLogin: false });

    expect(await me(bob)).toMatchObject({ firstLogin: false });
    // Another browser (a new session) of bob: already greeted. Carol's is still due.
    expect(await me(await server.signInAs({ owner_key: 'bob' }))).toMatchObject({ firstLogin: false });
    expect(await me(carol)).toMatchObject({ firstLogin: true });
  });

  it('keeps the first record when repeated', async () => {
    const dave = await server.signInAs({ owner_key: 'dave' });
    expect((await complete(dave)).status).toBe(200);
    const recorded = async () =>
      (
        await server.app.database.db
          .selectFrom('users')
          .select('first_login_completed_at')
          .where('owner_key', '=', 'dave')
          .executeTakeFirstOrThrow()
      ).first_login_completed_at;
    const first = await recorded();
    expect(first).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await complete(dave)).status).toBe(200);
    expect(await recorded()).toBe(first);
    expect(await me(dave)).toMatchObject({ firstLogin: false });
  });

  it('refuses an anonymous record with 401 in the error shape', async () => {
    const response = await complete();
    expect(response.status).toBe(401);
    expect((await readError(response)).code).toEqual(expect.any(String));
  });

  it("tells the admin at sign-in whether it is the admin's first", async () => {
    const login = () =>
      server.fetch('/api/auth/login', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
      });
    const first = await login();
    expect(await first.json()).toMatchObject({ isAdmin: true, firstLogin: true });
    const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect((await complete(cookie)).status).toBe(200);
    expect(await (await login()).json()).toMatchObject({ isAdmin: true, firstLogin: false });
  });

  it('counts users who existed before the upgrade as greeted', async () => {
    // An instance at the schema before 0008 with one user, upgraded by starting the current server on it (not the
    // running server's database moved back and forth under its background jobs).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-first-login-'));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    const old = openDatabase(
      postgres ? { kind: 'postgres', url: postgres.url } : { kind: 'sqlite', file: path.join(dataDir, 'atrium.db') },
    );
    let upgraded: TestServer | undefined;
    try {
      const migrator = new Migrator({ db: old.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      const before = Object.keys(migrations).filter((name) => name < '0008-first-login');
      const { error } = await migrator.migrateTo(before[before.length - 1] ?? '');
      expect(error).toBeUndefined();
      const at = new Date().toISOString();
      await sql`INSERT INTO users (id, owner_key, name, nickname, email, picture, role, created_at, updated_at)
        VALUES (${randomUUID()}, 'veteran', 'Veteran', 'veteran', null, null, 'user', ${at}, ${at})`.execute(old.db);
      await old.close();
      upgraded = await startTestServer({ dialect, dataDir, ...(postgres ? { databaseUrl: postgres.url } : {}) });
      const veteran = await upgraded.signInAs({ owner_key: 'veteran' });
      expect(await fetchMe(upgraded, veteran)).toMatchObject({ ownerKey: 'veteran', firstLogin: false });
      const newcomer = await upgraded.signInAs({ owner_key: 'newcomer' });
      expect(await fetchMe(upgraded, newcomer)).toMatchObject({ firstLogin: true });
    } finally {
      await upgraded?.close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
