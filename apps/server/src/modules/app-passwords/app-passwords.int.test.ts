import {
  AdminAppPasswordList,
  AppPasswordList,
  AppPasswordRecord,
  AuditPage,
  CreatedAppPassword,
} from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';
import { createLoginLimiter } from '../auth/login-limiter';
import { systemClock } from '../../lib/time';
import { createAppPasswordsRepository } from './app-passwords.repository';
import { createAppPasswordsService } from './app-passwords.service';

/**
 * App passwords (docs/PRODUCT.md#app-passwords): created with a name and shown once, listed with their last use,
 * revoked by the owner or an admin, audited; `verify` (the WebDAV sign-in) accepts only the owner's login name with a
 * live password of an enabled account, and counts failures like sign-ins.
 */
describe.each(dialects())('app passwords (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  /** The service as the WebDAV routes use it, on the server's database, with a small sign-in limit. */
  const verifier = (maxPerUsername = 50) =>
    createAppPasswordsService({
      repo: createAppPasswordsRepository(server.app.database.db),
      clock: systemClock,
      limiter: createLoginLimiter({
        db: server.app.database.db,
        clock: systemClock,
        maxPerIp: 1000,
        maxPerUsername,
        windowMs: 60_000,
      }),
    });

  const create = async (cookie: string, name: string) => {
    const response = await sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return CreatedAppPassword.parse(await response.json());
  };
  const list = async (cookie: string) => {
    const response = await sendJson(server, cookie, 'GET', '/api/me/app-passwords');
    expect(response.status).toBe(200);
    return AppPasswordList.parse(await response.json());
  };

  it('shows a new password once, lists it without the secret and records its last use', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-alice' });
    const created = await create(cookie, '  Laptop rclone ');
    expect(created.name).toBe('Laptop rclone');
    expect(created.password.length).toBeGreaterThanOrEqual(40);
    const listed = await list(cookie);
    expect(listed).toEqual([
      { id: created.id, name: 'Laptop rclone', createdAt: expect.any(String), lastUsedAt: null, lastUsedIp: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.password);

    const user = await verifier().verify('ap-alice', created.password, '203.0.113.9');
    expect(user).toMatchObject({ kind: 'user', ownerKey: 'ap-alice' });
    const [used] = await list(cookie);
    expect(used?.lastUsedIp).toBe('203.0.113.9');
    expect(used?.lastUsedAt).not.toBeNull();
    // Someone else's list does not show it.
    expect(await list(await server.signInAs({ owner_key: 'ap-bob' }))).toEqual([]);
  });

  it('refuses a wrong password, another login name, a revoked password and a disabled account', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-carol' });
    await server.signInAs({ owner_key: 'ap-dave' });
    const created = await create(cookie, 'Phone');
    const service = verifier();
    expect(await service.verify('ap-carol', `${created.password}x`, '198.51.100.1')).toBeNull();
    expect(await service.verify('ap-dave', created.password, '198.51.100.1')).toBeNull();
    expect(await service.verify('', created.password, '198.51.100.1')).toBeNull();
    expect(await service.verify('ap-carol', created.password, '198.51.100.1')).not.toBeNull();

    await server.app.database.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('owner_key', '=', 'ap-carol')
      .execute();
    expect(await service.verify('ap-carol', created.password, '198.51.100.1')).toBeNull();
    await server.app.database.db
      .updateTable('users')
      .set({ disabled_at: null })
      .where('owner_key', '=', 'ap-carol')
      .execute();

    const revoked = await sendJson(server, cookie, 'DELETE', `/api/me/app-passwords/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(AppPasswordRecord.strict().parse(await revoked.json()).id).toBe(created.id);
    expect(await service.verify('ap-carol', created.password, '198.51.100.1')).toBeNull();
    expect(await list(cookie)).toEqual([]);
    const again = await sendJson(server, cookie, 'DELETE', `/api/me/app-passwords/${created.id}`);
    expect(again.status).toBe(404);
  });

  it('counts failed sign-ins per login name and answers 429 past the limit', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-erin' });
    const created = await create(cookie, 'NAS');
    const service = verifier(3);
    for (let i = 0; i < 3; i += 1) expect(await service.verify('ap-erin', 'wrong', '192.0.2.7')).toBeNull();
    await expect(service.verify('ap-erin', 'wrong', '192.0.2.7')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // A good password from the owner still works: only failures count, and the secret cannot be guessed.
    expect(await service.verify('ap-erin', created.password, '192.0.2.8')).not.toBeNull();
  });

  it("keeps another user's password hidden: revoking it is the same 404 as an unknown id", async () => {
    const owner = await server.signInAs({ owner_key: 'ap-frank' });
    const other = await server.signInAs({ owner_key: 'ap-gina' });
    const created = await create(owner, 'Desktop');
    for (const id of [created.id, 'no-such-id']) {
      const response = await sendJson(server, other, 'DELETE', `/api/me/app-passwords/${id}`);
      expect(response.status).toBe(404);
      expect((await readError(response)).code).toBe('NOT_FOUND');
    }
    expect(await list(owner)).toHaveLength(1);
  });

  it('lets an admin list and revoke anyone’s, audited; others get 403; a bad name is 400', async () => {
    const owner = await server.signInAs({ owner_key: 'ap-hal' });
    const admin = await server.signInAs({ owner_key: 'ap-admin', role: 'admin' });
    const created = await create(owner, 'Work PC');
    expect((await sendJson(server, owner, 'GET', '/api/admin/app-passwords')).status).toBe(403);
    expect((await sendJson(server, owner, 'DELETE', `/api/admin/app-passwords/${created.id}`)).status).toBe(403);
    for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, {}, { name: 'a', extra: 1 }]) {
      const response = await sendJson(server, owner, 'POST', '/api/me/app-passwords', body);
      expect(response.status).toBe(400);
    }

    const all = AdminAppPasswordList.parse(
      await (await sendJson(server, admin, 'GET', '/api/admin/app-passwords')).json(),
    );
    expect(all.find((p) => p.id === created.id)).toMatchObject({ ownerKey: 'ap-hal', name: 'Work PC' });
    const revoked = await sendJson(server, admin, 'DELETE', `/api/admin/app-passwords/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(await list(owner)).toEqual([]);

    const audit = AuditPage.parse(
      await (await sendJson(server, admin, 'GET', `/api/admin/audit?target=app_password:${created.id}`)).json(),
    );
    expect(audit.entries.map((e) => [e.action, e.actor])).toEqual([
      ['app_password.revoked', 'ap-admin'],
      ['app_password.created', 'ap-hal'],
    ]);
  });

  it('refuses anonymous callers with 401', async () => {
    expect((await server.fetch('/api/me/app-passwords')).status).toBe(401);
  });
});
