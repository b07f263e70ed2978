import type { AppPasswordRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

interface Started {
  poll: { token: string; endpoint: string };
  login: string;
}
const CLIENT = 'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian ClientArchitecture: x86_64)';

/** Nextcloud Login Flow v2 (docs/PRODUCT.md#nextcloud-clients) through real HTTP, as a client and a browser do it. */
describe.each(dialects())('Nextcloud Login Flow v2 (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date();
  beforeAll(async () => {
    server = await startTestServer({ dialect, overrides: { clock: { now: () => now } } });
  });
  afterAll(async () => server?.close());

  const start = async (userAgent = CLIENT) =>
    expectJson<Started>(server.fetch('/index.php/login/v2', { method: 'POST', headers: { 'user-agent': userAgent } }));
  const poll = (endpoint: string, token: string) =>
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}`,
    });
  const loginToken = (login: string) => new URL(login).pathname.split('/').pop() ?? '';
  const asBrowser = (cookie: string, method: string, path: string) =>
    server.fetch(path, { method, headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' } });

  it('starts a flow, sends the browser to the grant page, and hands out an app password once after the grant', async () => {
    const flow = await start();
    expect(flow.poll.endpoint).toBe(`${server.url}/index.php/login/v2/poll`);
    expect(flow.poll.token).toMatch(/^[0-9a-f]{64}$/);
    expect(flow.login).toMatch(new RegExp(`^${server.url}/index.php/login/v2/flow/[0-9a-f]{64}$`));

    // Until someone grants it, the poll answers 404 with an empty list, as Nextcloud does.
    const pending = await poll(flow.poll.endpoint, flow.poll.token);
    expect(pending.status).toBe(404);
    expect(await pending.json()).toEqual([]);

    // The browser opens the login URL: it lands on the page of the web app (which signs the person in first).
    const landing = await fetch(flow.login, { redirect: 'manual' });
    expect(landing.status).toBe(302);
    const page = landing.headers.get('location') ?? '';
    expect(page).toBe(`/dashboard/connect-app/${loginToken(flow.login)}`);

    const token = loginToken(flow.login);
    expect((await server.fetch(`/api/login-flow/${token}`)).status).toBe(401);
    const cookie = await server.signInAs({ owner_key: 'flow-ada', name: 'Ada' });
    expect(await expectJson(asBrowser(cookie, 'GET', `/api/login-flow/${token}`))).toEqual({ clientName: CLIENT });
    expect(await expectJson(asBrowser(cookie, 'POST', `/api/login-flow/${token}/grant`))).toEqual({
      clientName: CLIENT,
      granted: true,
    });
    // A second grant, or another person's, finds nothing.
    const other = await server.signInAs({ owner_key: 'flow-bob' });
    const again = await asBrowser(other, 'POST', `/api/login-flow/${token}/grant`);
    expect(again.status).toBe(404);
    expect((await readError(again)).message).toBe(
      'This sign-in request has expired or was already used. Start again in the app.',
    );

    const granted = await poll(flow.poll.endpoint, flow.poll.token);
    expect(granted.status).toBe(200);
    const answer = await readJson<{ server: string; loginName: string; appPassword: string }>(granted);
    expect(answer.server).toBe(server.url);
    expect(answer.loginName).toBe('flow-ada');
    // The app password works for the client (cloud/user over Basic) and is listed under the client's name.
    const basic = `Basic ${Buffer.from(`flow-ada:${answer.appPassword}`).toString('base64')}`;
    const me = await server.fetch('/ocs/v2.php/cloud/user?format=json', { headers: { authorization: basic } });
    expect(me.status).toBe(200);
    const listed = await expectJson<AppPasswordRecord[]>(asBrowser(cookie, 'GET', '/api/me/app-passwords'));
    expect(listed.map((p) => p.name)).toEqual([CLIENT]);
    // Single use: the next poll finds nothing.
    expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
    // Audited as an app password made through the login flow.
    const admin = await server.signInAs({ owner_key: 'flow-admin', role: 'admin' });
    const audit = await expectJson<{ entries: { action: string; actor: string; details: unknown }[] }>(
      asBrowser(admin, 'GET', '/api/admin/audit?action=app_password.created'),
    );
    expect(audit.entries.find((entry) => entry.actor === 'flow-ada')?.details).toMatchObject({
      name: CLIENT,
      via: 'login-flow',
    });
  });

  it('refuses wrong and expired tokens: polls answer 404, the page says the request expired', async () => {
    expect((await poll(`${server.url}/index.php/login/v2/poll`, 'nope')).status).toBe(404);
    expect((await poll(`${server.url}/index.php/login/v2/poll`, '')).status).toBe(404);
    const cookie = await server.signInAs({ owner_key: 'flow-cy' });
    expect((await asBrowser(cookie, 'GET', '/api/login-flow/not-a-token')).status).toBe(404);

    const flow = await start('');
    const token = loginToken(flow.login);
    expect(await expectJson(asBrowser(cookie, 'GET', `/api/login-flow/${token}`))).toEqual({
      clientName: 'Unknown client',
    });
    expect(await expectJson(asBrowser(cookie, 'POST', `/api/login-flow/${token}/grant`))).toMatchObject({
      granted: true,
    });
    // 20 minutes later the flow is gone, granted or not.
    const saved = now;
    now = new Date(saved.getTime() + 20 * 60 * 1000 + 1000);
    try {
      expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
      const late = await start();
      now = new Date(now.getTime() + 21 * 60 * 1000);
      expect((await asBrowser(cookie, 'GET', `/api/login-flow/${loginToken(late.login)}`)).status).toBe(404);
      expect((await asBrowser(cookie, 'POST', `/api/login-flow/${loginToken(late.login)}/grant`)).status).toBe(404);
    } finally {
      now = saved;
    }
  });

  it('limits how many flows one address starts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      statuses.push((await server.fetch('/index.php/login/v2', { method: 'POST' })).status);
    }
    // Two flows were started by the tests above; the limit is 30 per 10 minutes.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe(429);
  });
});
