import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  fetchMe,
  readError,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';
import { migrateToLatest } from '../../db';
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
    const db = server.app.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const before = Object.keys(migrations).filter((name) => name < '0008-first-login');
    const { error } = await migrator.migrateTo(before[before.length - 1] ?? '');
    expect(error).toBeUndefined();
    const at = new Date().toISOString();
    await sql`INSERT INTO users (id, owner_key, name, nickname, email, picture, role, created_at, updated_at)
      VALUES (${randomUUID()}, 'veteran', 'Veteran', 'veteran', null, null, 'user', ${at}, ${at})`.execute(db);
    await migrateToLatest(db);
    const veteran = await server.signInAs({ owner_key: 'veteran' });
    expect(await me(veteran)).toMatchObject({ ownerKey: 'veteran', firstLogin: false });
    const newcomer = await server.signInAs({ owner_key: 'newcomer' });
    expect(await me(newcomer)).toMatchObject({ firstLogin: true });
  });
});
