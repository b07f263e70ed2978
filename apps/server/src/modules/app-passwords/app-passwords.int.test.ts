import type { AppPasswordRecord, AuditPage, CreatedAppPassword } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/** `/api/me/app-passwords` and `/api/admin/app-passwords` (docs/PRODUCT.md#app-passwords). */
describe.each(dialects())('app passwords (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it('creates a password shown once, lists it without the secret, and revokes it', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-ann' });
    const other = await server.signInAs({ owner_key: 'ap-bob' });
    const created = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'Laptop' }),
      201,
    );
    expect(created.name).toBe('Laptop');
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = await expectJson<AppPasswordRecord[]>(sendJson(server, cookie, 'GET', '/api/me/app-passwords'));
    expect(list).toEqual([
      expect.objectContaining({
        id: created.id,
        name: 'Laptop',
        ownerKey: 'ap-ann',
        lastUsedAt: null,
        revokedAt: null,
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(created.password);
    // Nobody else sees or revokes it.
    expect(await expectJson<AppPasswordRecord[]>(sendJson(server, other, 'GET', '/api/me/app-passwords'))).toEqual([]);
    const foreign = await sendJson(server, other, 'DELETE', `/api/me/app-passwords/${created.id}`);
    expect(foreign.status).toBe(404);
    const revoked = await expectJson<AppPasswordRecord>(
      sendJson(server, cookie, 'DELETE', `/api/me/app-passwords/${created.id}`),
    );
    expect(revoked.revokedAt).not.toBeNull();
    const audit = await expectJson<AuditPage>(
      sendJson(server, await server.signInAs({ owner_key: 'ap-admin', role: 'admin' }), 'GET', '/api/admin/audit'),
    );
    const actions = audit.entries.filter((e) => e.target === `app_password:${created.id}`).map((e) => e.action);
    expect(actions.sort()).toEqual(['app_password.created', 'app_password.revoked']);
  });

  it('refuses a missing or over-long name with 400', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-cat' });
    for (const body of [{}, { name: '  ' }, { name: 'x'.repeat(101) }, { name: 'ok', extra: 1 }]) {
      const response = await sendJson(server, cookie, 'POST', '/api/me/app-passwords', body);
      expect(response.status).toBe(400);
      expect((await readError(response)).code).toBe('VALIDATION_FAILED');
    }
  });

  it('lets admins list and revoke anyone’s, and nobody else', async () => {
    const cookie = await server.signInAs({ owner_key: 'ap-dan' });
    const admin = await server.signInAs({ owner_key: 'ap-root', role: 'admin' });
    const created = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'Phone' }),
      201,
    );
    expect((await sendJson(server, cookie, 'GET', '/api/admin/app-passwords')).status).toBe(403);
    expect((await sendJson(server, cookie, 'DELETE', `/api/admin/app-passwords/${created.id}`)).status).toBe(403);
    const all = await expectJson<AppPasswordRecord[]>(sendJson(server, admin, 'GET', '/api/admin/app-passwords'));
    expect(all.find((p) => p.id === created.id)?.ownerKey).toBe('ap-dan');
    const revoked = await expectJson<AppPasswordRecord>(
      sendJson(server, admin, 'DELETE', `/api/admin/app-passwords/${created.id}`),
    );
    expect(revoked.revokedAt).not.toBeNull();
    expect((await sendJson(server, admin, 'DELETE', '/api/admin/app-passwords/nope')).status).toBe(404);
  });
});
