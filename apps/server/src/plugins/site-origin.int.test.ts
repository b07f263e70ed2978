import http from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, formAction } from '../../test/browser';
import { dialects, readJson, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../test/helpers';

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A POST over real HTTP with the Host a browser would send for the address it uses (e.g. a LAN address). */
function postAs(server: TestServer, pathname: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const credentials = JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD });

describe.each(dialects())('without PUBLIC_URL, the site is wherever browsers reach it (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, withoutPublicUrl: true });
  });
  afterAll(async () => server?.close());

  it('signs the admin in from http://127.0.0.1:PORT and from a LAN address', async () => {
    const { port } = new URL(server.url);
    for (const host of [`127.0.0.1:${port}`, `192.168.1.20:${port}`, `atrium.lan:${port}`]) {
      const headers = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };
      const answer = await postAs(server, '/api/auth/login', headers, credentials);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ ownerKey: 'admin', isAdmin: true });
      expect(String(answer.headers['set-cookie'])).toMatch(/^atrium_session=/);
    }
    // Plain-http LAN pages send Origin but no Sec-Fetch-Site (not a secure context).
    const lan = await postAs(
      server,
      '/api/auth/login',
      { host: `10.0.0.7:${port}`, origin: `http://10.0.0.7:${port}` },
      credentials,
    );
    expect(lan.status).toBe(200);
  });

  it('still refuses other origins and cross-site requests', async () => {
    const { port } = new URL(server.url);
    const attempts: Record<string, string>[] = [
      { host: `127.0.0.1:${port}`, origin: 'https://evil.example' },
      { host: `127.0.0.1:${port}`, origin: `http://localhost:${Number(port) + 1}` },
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' },
      { host: `evil.example`, origin: `http://127.0.0.1:${port}` },
    ];
    for (const headers of attempts) {
      const answer = await postAs(server, '/api/auth/login', headers, credentials);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'CSRF_REJECTED' } });
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('says that no address is imposed', async () => {
    const response = await server.fetch('/api/auth/config');
    expect(await response.json()).toEqual({ providerName: 'Auth0', oidcEnabled: true, mailEnabled: false });
  });

  it('runs the identity-provider sign-in on the address the browser uses, callback included', async () => {
    const browser = createBrowser(server);
    const start = await browser.request('/api/auth/oidc/start?returnTo=/dashboard/files');
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') ?? '', server.url);
    expect(authorize.origin).toBe(server.url);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/oidc/callback`);
    browser.clear();
    const loginPage = await browser.follow('/api/auth/oidc/start?returnTo=/dashboard/files');
    expect(loginPage.response.status, await loginPage.response.clone().text()).toBe(200);
    const landed = await browser.follow(formAction(await loginPage.response.text()) ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'alice', password: 'wonderland' }).toString(),
    });
    expect(landed.url).toBe('/dashboard/files');
    const me = await server.fetch('/api/me', { headers: { cookie: browser.sessionCookie() } });
    expect(await readJson<{ ownerKey: string }>(me)).toMatchObject({ ownerKey: 'alice' });

    // Logging out of the provider returns to this address too.
    const out = await browser.request('/api/auth/logout', { method: 'POST' });
    const { redirectTo } = await readJson<{ redirectTo: string }>(out);
    const endSession = new URL(redirectTo, server.url);
    expect(endSession.origin).toBe(server.url);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/`);
    const logoutPage = await browser.request(`${endSession.pathname}${endSession.search}`);
    expect(logoutPage.status).toBe(200);
  });
});

describe.each(dialects())('with PUBLIC_URL set, another address is refused plainly (%s)', (dialect) => {
  let server: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    server = await startTestServer({
      dialect,
      env: { PUBLIC_URL: 'https://atrium.example.com' },
      overrides: { logger: { level: 'warn', stream } },
    });
  });
  afterAll(async () => server?.close());

  it('answers 403 PUBLIC_URL_MISMATCH naming both addresses, and logs it once', async () => {
    const { port } = new URL(server.url);
    const own = `http://127.0.0.1:${port}`;
    const headers = { host: `127.0.0.1:${port}`, origin: own, 'sec-fetch-site': 'same-origin' };
    for (let i = 0; i < 2; i++) {
      const answer = await postAs(server, '/api/auth/login', headers, credentials);
      expect(answer.status).toBe(403);
      expect(answer.headers['set-cookie']).toBeUndefined();
      const { error } = JSON.parse(answer.body) as { error: { code: string; message: string; details: unknown } };
      expect(error.code).toBe('PUBLIC_URL_MISMATCH');
      expect(error.message).toContain(own);
      expect(error.message).toContain('https://atrium.example.com');
      expect(error.details).toEqual([
        { path: 'publicUrl', message: 'https://atrium.example.com' },
        { path: 'origin', message: own },
      ]);
    }
    expect(logLines.filter((line) => line.includes('but PUBLIC_URL is https://atrium.example.com'))).toHaveLength(1);
  });

  it('keeps CSRF_REJECTED for real cross-site requests and accepts PUBLIC_URL', async () => {
    const evil = await postAs(server, '/api/auth/login', { origin: 'https://evil.example' }, credentials);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: 'CSRF_REJECTED' } });
    const right = await postAs(
      server,
      '/api/auth/login',
      { host: 'atrium.example.com', origin: 'https://atrium.example.com', 'sec-fetch-site': 'same-origin' },
      credentials,
    );
    expect(right.status).toBe(200);
  });

  it('tells the login page which address to use', async () => {
    const response = await server.fetch('/api/auth/config');
    expect(await response.json()).toEqual({
      providerName: 'Auth0',
      mailEnabled: false,
      oidcEnabled: true,
      publicUrl: 'https://atrium.example.com',
    });
  });
});
