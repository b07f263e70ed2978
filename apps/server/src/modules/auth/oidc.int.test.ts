import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, formAction, type TestBrowser } from '../../../test/browser';
import { dialects, fetchMe, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/** Signs in through the embedded provider's real login form; returns where the browser landed. */
async function signInWithProvider(browser: TestBrowser, username: string, password: string, returnTo?: string) {
  const start = `/api/auth/oidc/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`;
  const loginPage = await browser.follow(start);
  expect(loginPage.url).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  expect(loginPage.response.status).toBe(200);
  const html = await loginPage.response.text();
  expect(html).toContain('<form');
  expect(html).not.toMatch(/<script|<style| style=/);
  const action = formAction(html);
  expect(action).toBeTruthy();
  return browser.follow(action ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
}

describe.each(dialects())('OpenID Connect sign-in against the embedded provider (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  const me = (cookie: string) => fetchMe(server, cookie);

  it('publishes the provider name and that OIDC is on', async () => {
    const response = await server.fetch('/api/auth/config');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      providerName: 'Auth0',
      oidcEnabled: true,
      mailEnabled: false,
      publicUrl: server.url,
    });
  });

  it('runs the whole code flow and creates the user from userinfo', async () => {
    const browser = createBrowser(server);
    const start = await browser.request('/api/auth/oidc/start?returnTo=/dashboard/files');
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.pathname).toBe('/oidc/auth');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/oidc/callback`);
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('atrium_oidc='));
    expect(flowCookie).toMatch(/HttpOnly/);
    expect(flowCookie).toMatch(/Path=\/api\/auth\/oidc/);

    browser.clear();
    const landed = await signInWithProvider(browser, 'alice', 'wonderland', '/dashboard/files');
    expect(landed.response.status).toBe(302);
    expect(landed.url).toBe('/dashboard/files');
    const cookie = browser.sessionCookie();
    expect(cookie).toMatch(/^atrium_session=/);
    // No token ever reaches the browser: only the session cookie.
    expect(browser.cookie('atrium_oidc')).toBeUndefined();
    expect(await me(cookie)).toMatchObject({
      ownerKey: 'alice',
      name: 'Alice Martin',
      nickname: 'alice',
      email: 'alice@example.com',
      picture: `${server.url}/oidc/assets/avatar/alice.svg`,
      role: 'user',
      isAdmin: false,
    });
  });

  it('reuses the user on a second sign-in and lands on /dashboard by default', async () => {
    const first = createBrowser(server);
    await signInWithProvider(first, 'bob', 'builder');
    const firstMe = await me(first.sessionCookie());
    const second = createBrowser(server);
    const landed = await signInWithProvider(second, 'bob', 'builder');
    expect(landed.url).toBe('/dashboard');
    const secondMe = await me(second.sessionCookie());
    expect(secondMe.id).toBe(firstMe.id);
    expect(secondMe.ownerKey).toBe('bob');
  });

  it('falls back to the name for the owner key and makes a taken key unique', async () => {
    // A local account already holds "Carol Diaz".
    await server.signInAs({ owner_key: 'Carol Diaz' });
    const browser = createBrowser(server);
    await signInWithProvider(browser, 'carol', 'singer');
    const carol = await me(browser.sessionCookie());
    expect(carol).toMatchObject({ ownerKey: 'Carol Diaz-2', name: 'Carol Diaz', nickname: null });
  });

  it('only returns to same-origin paths', async () => {
    for (const evil of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const browser = createBrowser(server);
      const landed = await signInWithProvider(browser, 'alice', 'wonderland', evil);
      expect(landed.url, evil).toBe('/dashboard');
    }
  });

  it('shows the provider login form again on a wrong password, with no session', async () => {
    const browser = createBrowser(server);
    const result = await signInWithProvider(browser, 'alice', 'not-her-password');
    expect(result.response.status).toBe(401);
    expect(await result.response.text()).toContain('Wrong username or password.');
    expect(browser.cookie('atrium_session')).toBeUndefined();
  });

  it('refuses a callback without the flow cookie or with a forged state', async () => {
    const browser = createBrowser(server);
    const noFlow = await browser.request('/api/auth/oidc/callback?code=abc&state=xyz');
    expect(noFlow.status).toBe(302);
    expect(noFlow.headers.get('location')).toBe('/login?error=oidc_failed');

    // A real flow, but the callback arrives with another state (a login-CSRF attempt).
    await browser.follow('/api/auth/oidc/start');
    const forged = await browser.request('/api/auth/oidc/callback?code=abc&state=forged');
    expect(forged.headers.get('location')).toBe('/login?error=oidc_failed');
    expect(browser.cookie('atrium_session')).toBeUndefined();
  });

  it('logs out locally and returns the provider end-session URL back to the site', async () => {
    const browser = createBrowser(server);
    await signInWithProvider(browser, 'alice', 'wonderland');
    const cookie = browser.sessionCookie();
    const logout = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(200);
    const body = await readJson<{ ok: true; redirectTo: string }>(logout);
    const endSession = new URL(body.redirectTo);
    expect(endSession.pathname).toBe('/oidc/session/end');
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/`);
    expect((await server.fetch('/api/me', { headers: { cookie } })).status).toBe(401);

    // The provider asks for confirmation, then returns to the site origin.
    const confirm = await browser.follow(body.redirectTo);
    expect(confirm.response.status).toBe(200);
    const html = await confirm.response.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const done = await browser.follow(formAction(html) ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.url).toBe('/');
  });

  it('sends the admin back to the site itself on logout', async () => {
    const cookie = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const logout = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(await logout.json()).toEqual({ ok: true, redirectTo: '/' });
  });
});

describe('OpenID Connect with an unreachable provider', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        OIDC_ISSUER: 'http://127.0.0.1:9/unreachable',
        OIDC_CLIENT_ID: 'atrium',
        OIDC_CLIENT_SECRET: 'secret',
        OIDC_PROVIDER_NAME: 'Okta',
      },
    });
  });
  afterAll(async () => server?.close());

  it('sends the browser back to /login with an error the page explains', async () => {
    const response = await server.fetch('/api/auth/oidc/start', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?error=oidc_unavailable');
    expect(await (await server.fetch('/api/auth/config')).json()).toEqual({
      providerName: 'Okta',
      oidcEnabled: true,
      mailEnabled: false,
      publicUrl: server.url,
    });
    // No embedded provider when a real issuer is configured.
    expect((await server.fetch('/oidc/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('OpenID Connect off (production without an issuer)', () => {
  it('reports it off and does not mount the development provider', async () => {
    const server = await startTestServer({
      env: { NODE_ENV: 'production', SESSION_SECRET: 'oidc-production-test-secret-0123456789' },
    });
    try {
      expect(await (await server.fetch('/api/auth/config')).json()).toEqual({
        providerName: 'Auth0',
        oidcEnabled: false,
        mailEnabled: false,
        publicUrl: server.url,
      });
      expect((await server.fetch('/oidc/.well-known/openid-configuration')).status).toBe(404);
      const start = await server.fetch('/api/auth/oidc/start', { redirect: 'manual' });
      expect(start.headers.get('location')).toBe('/login?error=oidc_unavailable');
    } finally {
      await server.close();
    }
  });
});
