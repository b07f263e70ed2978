import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../test/helpers';

describe.each(dialects())('CSRF protection (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  const login = (headers: Record<string, string>) =>
    server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
  const logout = (cookie: string, headers: Record<string, string>) =>
    server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie, ...headers } });
  const me = (cookie: string) => server.fetch('/api/me', { headers: { cookie } });

  it('refuses a cross-site Origin with 403 CSRF_REJECTED and changes nothing', async () => {
    const cookie = await server.signInAs({ owner_key: 'csrf-victim' });
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: server.url.replace('127.0.0.1', 'localhost') },
    ]) {
      const response = await logout(cookie, headers);
      expect(response.status, headers.origin).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await readError(response)).toMatchObject({
        code: 'CSRF_REJECTED',
        message: 'Cross-site request refused.',
      });
    }
    // The session survived every attempt.
    expect((await me(cookie)).status).toBe(200);
  });

  it('refuses Sec-Fetch-Site: cross-site and same-site even without Origin', async () => {
    const cookie = await server.signInAs({ owner_key: 'csrf-victim-2' });
    for (const site of ['cross-site', 'same-site']) {
      const response = await logout(cookie, { 'sec-fetch-site': site });
      expect(response.status, site).toBe(403);
      expect((await readError(response)).code).toBe('CSRF_REJECTED');
    }
    const signIn = await login({ 'sec-fetch-site': 'cross-site' });
    expect(signIn.status).toBe(403);
    expect(signIn.headers.get('set-cookie')).toBeNull();
    expect((await me(cookie)).status).toBe(200);
  });

  it('lets same-origin browser requests and non-browser clients through', async () => {
    const sameOrigin = await login({ origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
    const noHeaders = await login({});
    expect(noHeaders.status).toBe(200);
    const cookie = await server.signInAs({ owner_key: 'csrf-leaver' });
    const out = await logout(cookie, { origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(out.status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
  });

  it('leaves safe methods alone', async () => {
    const cookie = await server.signInAs({ owner_key: 'csrf-reader' });
    const response = await server.fetch('/api/me', {
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(200);
  });
});
