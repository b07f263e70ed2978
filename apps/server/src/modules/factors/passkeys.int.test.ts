import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage, Passkey, PasskeyList } from '@atrium/contracts';
import {
  dialects,
  expectJson,
  readError,
  sendJson,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';
import { softPasskey } from '../../../test/webauthn';

const cookieFrom = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`) && pair.length > name.length + 1);

describe.each(dialects())('passkeys (%s)', (dialect) => {
  let server: TestServer;
  let alice = '';
  let bob = '';

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    alice = await server.signInAs({ owner_key: 'alice', oidc_issuer: 'https://idp.example.test', oidc_subject: 'a' });
    bob = await server.signInAs({ owner_key: 'bob', oidc_issuer: 'https://idp.example.test', oidc_subject: 'b' });
  });
  afterAll(async () => server?.close());

  const options = (cookie: string | undefined, path: string) =>
    expectJson<Record<string, unknown>>(sendJson(server, cookie, 'POST', path));
  async function register(cookie: string, key: ReturnType<typeof softPasskey>, name?: string) {
    const created = await options(cookie, '/api/me/passkeys/options');
    return sendJson(server, cookie, 'POST', '/api/me/passkeys', { response: key.register(created), name });
  }
  async function signIn(key: ReturnType<typeof softPasskey>, tamper = false) {
    const requested = await options(undefined, '/api/auth/passkey/options');
    return sendJson(server, undefined, 'POST', '/api/auth/passkey/verify', {
      response: key.authenticate(requested, { tamper }),
    });
  }

  it('registers several passkeys per person, lists, renames and keeps them to their owner', async () => {
    const laptop = softPasskey(server.url);
    const phone = softPasskey(server.url);
    const first = await expectJson<Passkey>(register(alice, laptop, 'Laptop'), 201);
    expect(first).toMatchObject({ id: laptop.id, name: 'Laptop', lastUsedAt: null });
    expect(await expectJson<Passkey>(register(alice, phone), 201)).toMatchObject({ name: 'Passkey 2' });
    // The same credential twice is refused.
    expect((await register(alice, laptop)).status).toBe(409);

    const listed = await expectJson<PasskeyList>(sendJson(server, alice, 'GET', '/api/me/passkeys'));
    expect(listed.passkeys.map((p) => p.name)).toEqual(['Laptop', 'Passkey 2']);
    expect(await expectJson<PasskeyList>(sendJson(server, bob, 'GET', '/api/me/passkeys'))).toEqual({ passkeys: [] });
    const renamed = await sendJson(server, alice, 'PATCH', `/api/me/passkeys/${phone.id}`, { name: 'Phone' });
    expect(await expectJson<Passkey>(renamed)).toMatchObject({ name: 'Phone' });
    expect((await sendJson(server, bob, 'PATCH', `/api/me/passkeys/${phone.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await sendJson(server, bob, 'DELETE', `/api/me/passkeys/${phone.id}`)).status).toBe(404);
  });

  it('refuses a registration answered to another challenge or for another person', async () => {
    const key = softPasskey(server.url);
    const created = await options(alice, '/api/me/passkeys/options');
    const answer = key.register(created);
    // Bob cannot finish Alice's ceremony; the challenge is Alice's.
    expect((await sendJson(server, bob, 'POST', '/api/me/passkeys', { response: answer })).status).toBe(400);
    const wrongOrigin = softPasskey('https://evil.example');
    const again = await options(alice, '/api/me/passkeys/options');
    const refused = await sendJson(server, alice, 'POST', '/api/me/passkeys', {
      response: wrongOrigin.register(again),
    });
    expect(refused.status).toBe(400);
  });

  it('signs in with a passkey alone, even for someone with an authenticator app', async () => {
    const key = softPasskey(server.url);
    await expectJson(register(alice, key, 'Desk'), 201);
    // Alice also has an authenticator app: a passkey is still enough.
    const { secret } = await expectJson<{ secret: string }>(sendJson(server, alice, 'POST', '/api/me/totp'));
    const code = execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    await expectJson(sendJson(server, alice, 'POST', '/api/me/totp/verify', { code }));

    const response = await signIn(key);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ownerKey: 'alice' });
    const session = cookieFrom(response, 'atrium_session') ?? '';
    expect(await expectJson(sendJson(server, session, 'GET', '/api/me'))).toMatchObject({ ownerKey: 'alice' });
    const listed = await expectJson<PasskeyList>(sendJson(server, session, 'GET', '/api/me/passkeys'));
    expect(listed.passkeys.find((p) => p.name === 'Desk')?.lastUsedAt).not.toBeNull();
    const audit = await expectJson<AuditPage>(
      sendJson(
        server,
        await server.signInAs({ owner_key: 'admin', role: 'admin' }),
        'GET',
        '/api/admin/audit?action=auth.sign_in&target=user:alice',
      ),
    );
    expect(audit.entries[0]).toMatchObject({ details: { method: 'passkey', passkey: 'Desk' } });
  });

  it('refuses a bad signature, a replayed answer and a removed passkey', async () => {
    const key = softPasskey(server.url);
    await expectJson(register(bob, key), 201);
    const bad = await signIn(key, true);
    expect(bad.status).toBe(401);
    expect(await readError(bad)).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'That passkey could not be used to sign in. Try again or use your password.',
    });
    expect(cookieFrom(bad, 'atrium_session')).toBeUndefined();

    const requested = await options(undefined, '/api/auth/passkey/options');
    const answer = key.authenticate(requested);
    expect((await sendJson(server, undefined, 'POST', '/api/auth/passkey/verify', { response: answer })).status).toBe(
      200,
    );
    const replay = await sendJson(server, undefined, 'POST', '/api/auth/passkey/verify', { response: answer });
    expect(replay.status).toBe(400);

    expect((await sendJson(server, bob, 'DELETE', `/api/me/passkeys/${key.id}`)).status).toBe(200);
    expect((await signIn(key)).status).toBe(401);
  });

  it('with the policy on, a person without a factor may add a passkey to finish the sign-in', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    await expectJson(sendJson(server, admin, 'PUT', '/api/admin/second-factor-policy', { policy: 'admins' }));
    const held = await sendJson(server, undefined, 'POST', '/api/auth/login', {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(await readError(held)).toMatchObject({ code: 'SECOND_FACTOR_ENROLMENT_REQUIRED' });
    const pending = cookieFrom(held, 'atrium_pending') ?? '';
    // Only the pending sign-in may ask: nobody, or a signed-in person, gets 401.
    expect((await sendJson(server, undefined, 'POST', '/api/auth/login/enrol/passkey/options')).status).toBe(401);
    expect((await sendJson(server, alice, 'POST', '/api/auth/login/enrol/passkey/options')).status).toBe(401);

    const key = softPasskey(server.url);
    const created = await options(pending, '/api/auth/login/enrol/passkey/options');
    expect(created).toMatchObject({ user: { name: 'admin' } });
    // An answer to another ceremony's challenge is refused; the pending sign-in stays.
    const other = await options(alice, '/api/me/passkeys/options');
    const refused = await sendJson(server, pending, 'POST', '/api/auth/login/enrol/passkey', {
      response: softPasskey(server.url).register(other),
    });
    expect(refused.status).toBe(400);
    const done = await sendJson(server, pending, 'POST', '/api/auth/login/enrol/passkey', {
      response: key.register(created),
      name: 'Admin laptop',
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ ownerKey: 'admin', isAdmin: true });
    const session = cookieFrom(done, 'atrium_session') ?? '';
    expect(await expectJson(sendJson(server, session, 'GET', '/api/me'))).toMatchObject({ ownerKey: 'admin' });
    const listed = await expectJson<PasskeyList>(sendJson(server, session, 'GET', '/api/me/passkeys'));
    expect(listed.passkeys.map((p) => p.name)).toEqual(['Admin laptop']);
    // The pending sign-in is used up; the passkey alone signs in from now on.
    expect((await sendJson(server, pending, 'POST', '/api/auth/login/enrol/passkey/options')).status).toBe(401);
    expect((await signIn(key)).status).toBe(200);
    const audit = await expectJson<AuditPage>(
      sendJson(server, session, 'GET', '/api/admin/audit?action=factor.added&target=user:admin'),
    );
    expect(audit.entries[0]).toMatchObject({ details: { factor: 'passkey', name: 'Admin laptop' } });
  });

  it('with the policy on, an admin with only a passkey is sent to the passkey', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const key = softPasskey(server.url);
    await expectJson(register(admin, key), 201);
    await expectJson(sendJson(server, admin, 'PUT', '/api/admin/second-factor-policy', { policy: 'admins' }));
    const password = await sendJson(server, undefined, 'POST', '/api/auth/login', {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(password.status).toBe(403);
    expect(await readError(password)).toMatchObject({
      message: 'Your admin requires a second factor: sign in with your passkey.',
    });
    expect((await signIn(key)).status).toBe(200);
  });
});
