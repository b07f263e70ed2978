import { ACCOUNT_DISABLED_MESSAGE } from '@atrium/contracts/texts';
import { ADMIN_USER_MESSAGES, type AdminUser, type FileRecord, type MeResponse } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, formAction, type TestBrowser } from '../../../test/browser';
import {
  dialects,
  sendJson,
  readError,
  readJson,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';

const send = sendJson;

const endsWithin = (open: SseStream, ms: number) =>
  Promise.race([open.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

async function upload(server: TestServer, cookie: string, owner: string, bytes: number) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(bytes, 1)]), 'data.bin');
  return server.fetch(`/api/files/upload?userId=${owner}`, {
    method: 'POST',
    headers: { cookie, accept: 'application/json' },
    body: form,
  });
}

async function signInWithProvider(browser: TestBrowser, username: string, password: string) {
  const loginPage = await browser.follow('/api/auth/oidc/start');
  const action = formAction(await loginPage.response.text());
  return browser.follow(action ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
}

describe.each(dialects())('admin console: users and roles (%s)', (dialect) => {
  let server: TestServer;
  let admin: string;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { USER_QUOTA_BYTES: '1048576', NOTIFICATIONS_HEARTBEAT_MS: '100' },
    });
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
  });
  const me = (cookie: string) => send(server, cookie, 'GET', '/api/me');
  const userOf = async (ownerKey: string) => {
    const list = await readJson<AdminUser[]>(await send(server, admin, 'GET', `/api/admin/users?q=${ownerKey}`));
    return list.find((u) => u.userId === ownerKey);
  };

  it('lists users with usage, sessions and last sign-in; searches and pages with a cursor', async () => {
    const ann = await server.signInAs({ owner_key: 'list-ann', name: 'Ann Example', email: 'ann@corp.test' });
    await server.signInAs({ owner_key: 'list-ann' });
    await server.signInAs({ owner_key: 'list-ben' });
    await server.signInAs({ owner_key: 'list-cy' });
    expect((await upload(server, ann, 'list-ann', 1234)).status).toBe(200);
    // The built-in admin signs in with its password: its last sign-in is recorded.
    const login = await send(server, undefined, 'POST', '/api/auth/login', {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(login.status).toBe(200);

    const all = await send(server, admin, 'GET', '/api/admin/users');
    expect(all.status).toBe(200);
    const users = await readJson<AdminUser[]>(all);
    expect(users.map((u) => u.userId)).toEqual([...users.map((u) => u.userId)].sort());
    expect(users.find((u) => u.userId === 'list-ann')).toMatchObject({
      name: 'Ann Example',
      email: 'ann@corp.test',
      role: 'user',
      disabled: false,
      builtIn: false,
      quotaBytes: null,
      effectiveQuotaBytes: 1048576,
      usedBytes: 1234,
      sessions: 2,
    });
    const builtIn = users.find((u) => u.userId === 'admin');
    expect(builtIn).toMatchObject({ role: 'admin', builtIn: true });
    expect(Date.parse(builtIn?.lastSignInAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Search: owner key, name or email contain the text, case-insensitively.
    const byEmail = await readJson<AdminUser[]>(await send(server, admin, 'GET', '/api/admin/users?q=CORP.test'));
    expect(byEmail.map((u) => u.userId)).toEqual(['list-ann']);
    const wildcard = await readJson<AdminUser[]>(await send(server, admin, 'GET', '/api/admin/users?q=%25'));
    expect(wildcard).toEqual([]);

    // Paging: two at a time through the header cursor, every list- user once.
    const seen: string[] = [];
    let url = '/api/admin/users?q=list-&limit=2';
    for (let page = 0; page < 5; page += 1) {
      const response = await send(server, admin, 'GET', url);
      seen.push(...(await readJson<AdminUser[]>(response)).map((u) => u.userId));
      const next = response.headers.get('x-next-cursor');
      if (!next) break;
      url = `/api/admin/users?q=list-&limit=2&cursor=${next}`;
    }
    expect(seen).toEqual(['list-ann', 'list-ben', 'list-cy']);
    const bad = await send(server, admin, 'GET', '/api/admin/users?cursor=%21%21');
    expect(bad.status).toBe(400);
    expect((await readError(bad)).message).toMatch(/cursor/);
  });

  it('refuses non-admins (403) and anonymous callers (401)', async () => {
    const user = await server.signInAs({ owner_key: 'plain-user' });
    for (const [method, url, body] of [
      ['GET', '/api/admin/users', undefined],
      ['PATCH', '/api/admin/users/plain-user', { role: 'admin' }],
      ['DELETE', '/api/admin/users/plain-user/sessions', undefined],
    ] as const) {
      const forbidden = await send(server, user, method, url, body);
      expect(forbidden.status, `${method} ${url}`).toBe(403);
      expect((await readError(forbidden)).message).toBe('Only admins can manage users.');
      expect((await send(server, undefined, method, url, body)).status).toBe(401);
    }
    expect((await userOf('plain-user'))?.role).toBe('user');
  });

  it('makes a user an admin and back; the built-in admin and yourself cannot be demoted or disabled', async () => {
    const eve = await server.signInAs({ owner_key: 'eve' });
    expect((await send(server, eve, 'GET', '/api/admin/users')).status).toBe(403);
    const promoted = await send(server, admin, 'PATCH', '/api/admin/users/eve', { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(await readJson<AdminUser>(promoted)).toMatchObject({ userId: 'eve', role: 'admin' });
    // Her existing session is an admin's now.
    expect((await readJson<MeResponse>(await me(eve))).isAdmin).toBe(true);
    expect((await send(server, eve, 'GET', '/api/admin/users')).status).toBe(200);

    for (const body of [{ role: 'user' }, { disabled: true }]) {
      const builtIn = await send(server, eve, 'PATCH', '/api/admin/users/admin', body);
      expect(builtIn.status).toBe(409);
      expect((await readError(builtIn)).message).toBe(ADMIN_USER_MESSAGES.builtIn);
      const self = await send(server, eve, 'PATCH', '/api/admin/users/eve', body);
      expect(self.status).toBe(409);
      expect((await readError(self)).message).toBe(ADMIN_USER_MESSAGES.self);
    }
    // Changing one's own quota is fine; the built-in admin's too.
    expect((await send(server, eve, 'PATCH', '/api/admin/users/eve', { quotaBytes: 5000 })).status).toBe(200);

    const demoted = await send(server, admin, 'PATCH', '/api/admin/users/eve', { role: 'user' });
    expect(await readJson<AdminUser>(demoted)).toMatchObject({ role: 'user', quotaBytes: 5000 });
    expect((await send(server, eve, 'GET', '/api/admin/users')).status).toBe(403);
  });

  it('answers bad input with a 4xx in the error shape', async () => {
    await server.signInAs({ owner_key: 'input-user' });
    for (const body of [
      { quotaBytes: -1 },
      { quotaBytes: 1.5 },
      { role: 'owner' },
      { disabled: 'yes' },
      { extra: 1 },
    ]) {
      const response = await send(server, admin, 'PATCH', '/api/admin/users/input-user', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readError(response)).code).toBe('VALIDATION_FAILED');
    }
    const missing = await send(server, admin, 'PATCH', '/api/admin/users/nobody-here', { role: 'admin' });
    expect(missing.status).toBe(404);
    expect((await readError(missing)).code).toBe('USER_NOT_FOUND');
    expect((await send(server, admin, 'DELETE', '/api/admin/users/nobody-here/sessions')).status).toBe(404);
    const bad = await send(server, admin, 'GET', '/api/admin/users?limit=1000');
    expect(bad.status).toBe(400);
  });

  it('disabling ends sessions and live streams at once and refuses the session; enabling lets the user back', async () => {
    const phone = await server.signInAs({ owner_key: 'dis-user' });
    const laptop = await server.signInAs({ owner_key: 'dis-user' });
    const other = await server.signInAs({ owner_key: 'dis-other' });
    const live = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: phone } });
    const othersStream = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: other } });
    streams.push(live, othersStream);
    expect(live.status).toBe(200);

    const disabled = await send(server, admin, 'PATCH', '/api/admin/users/dis-user', { disabled: true });
    expect(disabled.status).toBe(200);
    expect(await readJson<AdminUser>(disabled)).toMatchObject({ disabled: true, sessions: 0 });
    expect(await endsWithin(live, 1000)).toBe(true);
    expect(await endsWithin(othersStream, 200)).toBe(false);
    for (const cookie of [phone, laptop]) expect((await me(cookie)).status).toBe(401);
    // The stream route verifies sessions from a short-lived memory: the one it verified a moment ago is refused too.
    const reopened = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: phone } });
    streams.push(reopened);
    expect(reopened.status).toBe(401);
    // A session made afterwards (as any sign-in path would) counts for nothing either.
    expect((await me(await server.signInAs({ owner_key: 'dis-user' }))).status).toBe(401);
    expect((await me(other)).status).toBe(200);

    const enabled = await send(server, admin, 'PATCH', '/api/admin/users/dis-user', { disabled: false });
    expect(await readJson<AdminUser>(enabled)).toMatchObject({ disabled: false });
    expect((await me(await server.signInAs({ owner_key: 'dis-user' }))).status).toBe(200);
  });

  it('a per-user quota overrides the default in the upload check; null goes back to the default', async () => {
    const cookie = await server.signInAs({ owner_key: 'quota-user' });
    expect((await upload(server, cookie, 'quota-user', 3000)).status).toBe(200);
    const set = await send(server, admin, 'PATCH', '/api/admin/users/quota-user', { quotaBytes: 4096 });
    expect(await readJson<AdminUser>(set)).toMatchObject({
      quotaBytes: 4096,
      effectiveQuotaBytes: 4096,
      usedBytes: 3000,
    });
    const refused = await upload(server, cookie, 'quota-user', 2000);
    expect(refused.status).toBe(413);
    const error = await readError(refused);
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(error.message).toMatch(/your storage quota of 4\.00 KB/);
    expect((await upload(server, cookie, 'quota-user', 900)).status).toBe(200);

    // A quota above the default lets the user store more than the default.
    await send(server, admin, 'PATCH', '/api/admin/users/quota-user', { quotaBytes: 3_000_000 });
    expect((await upload(server, cookie, 'quota-user', 1_200_000)).status).toBe(200);
    // Back to the default (1 MiB), which the user is now over.
    const reset = await send(server, admin, 'PATCH', '/api/admin/users/quota-user', { quotaBytes: null });
    expect(await readJson<AdminUser>(reset)).toMatchObject({ quotaBytes: null, effectiveQuotaBytes: 1048576 });
    const over = await upload(server, cookie, 'quota-user', 10);
    expect(over.status).toBe(413);
    expect((await readError(over)).message).toMatch(/storage quota of 1\.00 MB per user/);
    const files = await readJson<{ files: FileRecord[] } | FileRecord[]>(
      await send(server, cookie, 'GET', '/api/files/user/quota-user'),
    );
    expect(Array.isArray(files) ? files.length : files.files.length).toBe(3);
  });

  it('signs a user out everywhere; for yourself, everywhere but here', async () => {
    const one = await server.signInAs({ owner_key: 'out-user' });
    const two = await server.signInAs({ owner_key: 'out-user' });
    const live = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: one } });
    streams.push(live);
    const revoked = await send(server, admin, 'DELETE', '/api/admin/users/out-user/sessions');
    expect(revoked.status).toBe(200);
    expect(await readJson(revoked)).toEqual({ revoked: 2 });
    expect(await endsWithin(live, 1000)).toBe(true);
    for (const cookie of [one, two]) expect((await me(cookie)).status).toBe(401);
    const reopened = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: one } });
    streams.push(reopened);
    expect(reopened.status).toBe(401);
    // Not disabled: signing in again works.
    expect((await me(await server.signInAs({ owner_key: 'out-user' }))).status).toBe(200);

    const here = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const elsewhere = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const mine = await send(server, here, 'DELETE', '/api/admin/users/admin/sessions');
    expect((await readJson<{ revoked: number }>(mine)).revoked).toBeGreaterThanOrEqual(1);
    expect((await me(here)).status).toBe(200);
    expect((await me(elsewhere)).status).toBe(401);
    admin = here;
  });
});

describe.each(dialects())('admin role from the identity provider, and disabled OIDC users (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // The embedded provider maps `groups` ∋ `atrium-admins` to admin by default.
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());
  const meOf = async (browser: TestBrowser) =>
    readJson<MeResponse>(await server.fetch('/api/me', { headers: { cookie: browser.sessionCookie() } }));

  it('makes dave (group atrium-admins) an admin at sign-in; alice stays a user', async () => {
    const dave = createBrowser(server);
    expect((await signInWithProvider(dave, 'dave', 'director')).url).toBe('/dashboard');
    expect(await meOf(dave)).toMatchObject({ ownerKey: 'dave', role: 'admin', isAdmin: true });
    const alice = createBrowser(server);
    await signInWithProvider(alice, 'alice', 'wonderland');
    expect(await meOf(alice)).toMatchObject({ ownerKey: 'alice', role: 'user', isAdmin: false });
    const list = await server.fetch('/api/admin/users', { headers: { cookie: dave.sessionCookie() } });
    expect(list.status).toBe(200);
  });

  it('re-evaluates the mapped role at each sign-in (a hand-made admin without the group becomes a user again)', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const patched = await server.fetch('/api/admin/users/alice', {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'admin' }),
    });
    expect(patched.status).toBe(200);
    const alice = createBrowser(server);
    await signInWithProvider(alice, 'alice', 'wonderland');
    expect((await meOf(alice)).role).toBe('user');
    // The provider's change of her role is audited, with no acting user.
    const audit = await server.fetch('/api/admin/audit?action=user.role_changed&target=user:alice', {
      headers: { cookie: admin },
    });
    const { entries } = await readJson<{ entries: { actor: string | null; details: unknown }[] }>(audit);
    expect(entries[0]).toMatchObject({ actor: null, details: { from: 'admin', to: 'user', source: 'oidc_claim' } });
  });

  it('refuses a disabled user at the OIDC callback with a clear message', async () => {
    const bob = createBrowser(server);
    await signInWithProvider(bob, 'bob', 'builder');
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const patched = await server.fetch('/api/admin/users/bob', {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(patched.status).toBe(200);
    expect((await server.fetch('/api/me', { headers: { cookie: bob.sessionCookie() } })).status).toBe(401);

    const again = createBrowser(server);
    const landed = await signInWithProvider(again, 'bob', 'builder');
    expect(landed.url).toBe('/login?error=account_disabled');
    expect(again.cookie('atrium_session')).toBeUndefined();
    // The refusal is in the audit log, with its reason and the provider's subject.
    const audit = await server.fetch('/api/admin/audit?action=auth.sign_in_failed&target=oidc:demo-bob', {
      headers: { cookie: admin },
    });
    const { entries } = await readJson<{ entries: { details: Record<string, unknown> }[] }>(audit);
    expect(entries[0]?.details).toEqual({ method: 'oidc', reason: 'account_disabled' });
    expect(ACCOUNT_DISABLED_MESSAGE).toMatch(/disabled/);
  });
});
