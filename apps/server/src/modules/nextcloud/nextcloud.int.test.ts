import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, uploadFile, type TestServer } from '../../../test/helpers';

interface Ocs<T> {
  ocs: { meta: { status: string; statuscode: number; message: string }; data: T };
}
interface CloudUser {
  id: string;
  email: string;
  'display-name': string;
  quota: { free: number; used: number; total: number; relative: number };
}

describe.each(dialects())('Nextcloud client discovery (%s)', (dialect) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { USER_QUOTA_BYTES: '1000000' } });
    cookie = await server.signInAs({ owner_key: 'nc-ada', name: 'Ada Lovelace', email: 'ada@example.test' });
  });
  afterAll(async () => server?.close());

  it('answers /status.php as an installed Nextcloud 28 named Atrium', async () => {
    const response = await server.fetch('/status.php');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const status = await readJson<Record<string, unknown>>(response);
    expect(status).toMatchObject({
      installed: true,
      maintenance: false,
      needsDbUpgrade: false,
      productname: 'Atrium',
      extendedSupport: false,
    });
    expect(status.versionstring).toMatch(/^28\.0\.\d+$/);
    expect(status.version).toMatch(/^28\.0\.\d+\.\d+$/);
    expect(String(status.version).startsWith(String(status.versionstring))).toBe(true);
  });

  it('serves the capabilities in the OCS envelope: XML by default, JSON with format=json', async () => {
    const xml = await server.fetch('/ocs/v1.php/cloud/capabilities', { headers: { 'ocs-apirequest': 'true' } });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/text\/xml/);
    const text = await xml.text();
    expect(text).toMatch(/^<\?xml version="1.0"\?>\n<ocs><meta><status>ok<\/status><statuscode>100<\/statuscode>/);
    expect(text).toContain('<version><major>28</major>');
    expect(text).toContain('<supportedTypes><element>SHA256</element></supportedTypes>');

    for (const [version, code] of [
      [1, 100],
      [2, 200],
    ] as const) {
      const json = await server.fetch(`/ocs/v${version}.php/cloud/capabilities?format=json`);
      expect(json.status).toBe(200);
      const body =
        await readJson<Ocs<{ version: { major: number; string: string }; capabilities: Record<string, unknown> }>>(
          json,
        );
      expect(body.ocs.meta).toMatchObject({ status: 'ok', statuscode: code });
      expect(body.ocs.data.version.major).toBe(28);
      expect(body.ocs.data.capabilities).toMatchObject({
        core: { 'webdav-root': 'remote.php/webdav' },
        checksums: { supportedTypes: ['SHA256'] },
      });
      // Chunked uploads are advertised: the clients send large files in chunks under /remote.php/dav/uploads/.
      expect(body.ocs.data.capabilities).toMatchObject({ dav: { chunking: '1.0' }, files: { bigfilechunking: true } });
    }
    const accept = await server.fetch('/ocs/v2.php/cloud/capabilities', { headers: { accept: 'application/json' } });
    expect((await readJson<Ocs<unknown>>(accept)).ocs.meta.statuscode).toBe(200);
  });

  it('answers cloud/user for the signed-in person: owner key, name, email and quota', async () => {
    const before = await readJson<Ocs<CloudUser>>(
      await server.fetch('/ocs/v2.php/cloud/user?format=json', { headers: { cookie, 'ocs-apirequest': 'true' } }),
    );
    expect(before.ocs.meta.statuscode).toBe(200);
    expect(before.ocs.data).toMatchObject({
      id: 'nc-ada',
      email: 'ada@example.test',
      'display-name': 'Ada Lovelace',
      quota: { total: 1000000, used: 0, free: 1000000, relative: 0 },
    });
    expect((await uploadFile(server, cookie, '', 'note.txt', new Uint8Array(250000).fill(97))).status).toBe(200);
    const after = await server.fetch('/ocs/v1.php/cloud/user', { headers: { cookie, 'ocs-apirequest': 'true' } });
    const xml = await after.text();
    expect(xml).toContain('<statuscode>100</statuscode>');
    expect(xml).toContain('<id>nc-ada</id>');
    expect(xml).toContain('<used>250000</used><total>1000000</total><relative>25</relative>');
  });

  it('answers cloud/user to HTTP Basic with an app password, and no longer once it is revoked', async () => {
    const created = await server.fetch('/api/me/app-passwords', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Laptop' }),
    });
    expect(created.status).toBe(201);
    const { id, password } = await readJson<{ id: string; password: string }>(created);
    const authorization = `Basic ${Buffer.from(`nc-ada:${password}`).toString('base64')}`;
    const asClient = () =>
      server.fetch('/ocs/v1.php/cloud/user?format=json', { headers: { authorization, 'ocs-apirequest': 'true' } });
    const answer = await asClient();
    expect(answer.status).toBe(200);
    const body = await readJson<Ocs<CloudUser>>(answer);
    expect(body.ocs.meta.statuscode).toBe(100);
    expect(body.ocs.data).toMatchObject({ id: 'nc-ada', 'display-name': 'Ada Lovelace' });
    // Another person's login name with Ada's password is refused.
    const wrongLogin = `Basic ${Buffer.from(`nc-bob:${password}`).toString('base64')}`;
    expect((await server.fetch('/ocs/v2.php/cloud/user', { headers: { authorization: wrongLogin } })).status).toBe(401);
    const revoked = await server.fetch(`/api/me/app-passwords/${id}`, { method: 'DELETE', headers: { cookie } });
    expect(revoked.status).toBeLessThan(300);
    expect((await asClient()).status).toBe(401);
  });

  it('refuses cloud/user without credentials, with a cookie but no OCS-APIRequest, and with a wrong Basic login', async () => {
    const basic = `Basic ${Buffer.from('nc-ada:not-an-app-password').toString('base64')}`;
    for (const headers of [
      {},
      { cookie },
      { cookie, 'ocs-apirequest': 'false' },
      { authorization: basic, 'ocs-apirequest': 'true' },
      { authorization: 'Basic !!!', 'ocs-apirequest': 'true' },
    ] as Record<string, string>[]) {
      const response = await server.fetch('/ocs/v2.php/cloud/user?format=json', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="Atrium"/);
      const body = await readJson<Ocs<unknown>>(response);
      expect(body.ocs.meta).toMatchObject({ status: 'failure', statuscode: 997 });
    }
  });
});
