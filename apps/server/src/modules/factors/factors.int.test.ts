import { execFileSync } from 'node:child_process';
import { openDatabase } from '../../db';
import { resetTwoFactor } from '../../ops/reset-2fa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage, MeResponse, RecoveryCodesResponse, TotpEnrolment } from '@atrium/contracts';
import {
  dialects,
  expectJson,
  readError,
  sendJson,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';

/** The tests' clock; oathtool computes codes for the same instants, independently of the app's library. */
const START = Date.parse('2026-11-21T09:00:10Z');

/** A TOTP code from Debian's oathtool for `secret` at `at`. */
const oathtool = (secret: string, at: number) =>
  execFileSync('oathtool', ['--totp', '-b', secret, '--now', `@${Math.floor(at / 1000)}`], {
    encoding: 'utf8',
  }).trim();

const cookieFrom = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`) && pair.length > name.length + 1);

describe.each(dialects())('TOTP, recovery codes and the second sign-in step (%s)', (dialect) => {
  let server: TestServer;
  let now = START;

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      overrides: { clock: { now: () => new Date(now) } },
      env: { LOGIN_MAX_FAILURES_PER_IP: '100', LOGIN_MAX_FAILURES_PER_USERNAME: '100' },
    });
  });
  afterAll(async () => server?.close());

  const login = () =>
    sendJson(server, undefined, 'POST', '/api/auth/login', { username: 'admin', password: TEST_ADMIN_PASSWORD });
  const finish = (pending: string | undefined, code: string) =>
    sendJson(server, pending, 'POST', '/api/auth/login/totp', { code });
  /** Password first: answers the pending cookie the 401 SECOND_FACTOR_REQUIRED set. */
  async function startSignIn(): Promise<string> {
    const response = await login();
    expect(response.status).toBe(401);
    expect(await readError(response)).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    expect(cookieFrom(response, 'atrium_session')).toBeUndefined();
    const pending = cookieFrom(response, 'atrium_pending');
    expect(pending).toBeDefined();
    return pending ?? '';
  }

  let adminCookie = '';
  let secret = '';
  let recoveryCodes: string[] = [];

  it('enrols an authenticator app: secret, otpauth address, QR code, then ten recovery codes', async () => {
    const signedIn = await login();
    expect(signedIn.status).toBe(200);
    adminCookie = cookieFrom(signedIn, 'atrium_session') ?? '';

    const enrolment = await expectJson<TotpEnrolment>(sendJson(server, adminCookie, 'POST', '/api/me/totp'));
    secret = enrolment.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Atrium:admin\?/);
    expect(enrolment.otpauthUrl).toContain(`secret=${secret}`);
    expect(Buffer.from(enrolment.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain(
      '<svg',
    );
    // Not on yet: the password alone still signs in.
    expect((await login()).status).toBe(200);

    const wrong = await sendJson(server, adminCookie, 'POST', '/api/me/totp/verify', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(await readError(wrong)).toMatchObject({ code: 'INVALID_CODE' });

    const confirmed = await expectJson<RecoveryCodesResponse>(
      sendJson(server, adminCookie, 'POST', '/api/me/totp/verify', { code: oathtool(secret, now) }),
    );
    recoveryCodes = confirmed.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await expectJson(sendJson(server, adminCookie, 'GET', '/api/me/second-factors'))).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      required: false,
      turnOffWith: 'password',
    });
  });

  it('asks for a code after the password and refuses a replayed one', async () => {
    const pending = await startSignIn();
    // The code that confirmed the app was used at this step already.
    const replay = await finish(pending, oathtool(secret, now));
    expect(replay.status).toBe(400);
    expect(await readError(replay)).toMatchObject({ code: 'INVALID_CODE' });
    expect(cookieFrom(replay, 'atrium_session')).toBeUndefined();
  });

  it('accepts a code of the previous 30-s step, then refuses it again, then takes the current one', async () => {
    now = START + 60_000;
    const previous = oathtool(secret, now - 30_000);
    const pending = await startSignIn();
    const done = await finish(pending, previous);
    expect(done.status).toBe(200);
    expect(await readJson<MeResponse>(done)).toMatchObject({ ownerKey: 'admin', isAdmin: true });
    const session = cookieFrom(done, 'atrium_session') ?? '';
    expect((await sendJson(server, session, 'GET', '/api/me')).status).toBe(200);
    // The pending cookie is spent.
    expect((await finish(pending, oathtool(secret, now))).status).toBe(401);

    const again = await startSignIn();
    expect((await finish(again, previous)).status).toBe(400);
    expect((await finish(again, oathtool(secret, now))).status).toBe(200);
  });

  it('refuses a code two steps old, a wrong code, and a code without a pending sign-in', async () => {
    now = START + 150_000;
    const pending = await startSignIn();
    expect((await finish(pending, oathtool(secret, now - 60_000))).status).toBe(400);
    expect((await finish(pending, '123456')).status).toBe(400);
    const none = await finish(undefined, oathtool(secret, now));
    expect(none.status).toBe(401);
    expect(await readError(none)).toMatchObject({ code: 'SIGN_IN_EXPIRED' });
  });

  it('takes each recovery code once', async () => {
    const code = recoveryCodes[0] ?? '';
    const first = await startSignIn();
    expect((await finish(first, code.toUpperCase())).status).toBe(200);
    const second = await startSignIn();
    const reused = await finish(second, code);
    expect(reused.status).toBe(400);
    expect(await readError(reused)).toMatchObject({ code: 'INVALID_CODE' });
    expect(await expectJson(sendJson(server, adminCookie, 'GET', '/api/me/second-factors'))).toMatchObject({
      recoveryCodesLeft: 9,
    });
  });

  it('ends a pending sign-in after five wrong codes', async () => {
    now = START + 300_000;
    const pending = await startSignIn();
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await finish(pending, '999999')).status).toBe(400);
    const sixth = await finish(pending, oathtool(secret, now));
    expect(sixth.status).toBe(429);
    expect((await finish(pending, oathtool(secret, now))).status).toBe(401);
  });

  it('forgets a pending sign-in after five minutes', async () => {
    now = START + 400_000;
    const pending = await startSignIn();
    now += 5 * 60_000 + 1000;
    expect((await finish(pending, oathtool(secret, now))).status).toBe(401);
  });

  it('records the factor of each sign-in and the factor changes in the audit log', async () => {
    const page = await expectJson<AuditPage>(
      sendJson(server, adminCookie, 'GET', '/api/admin/audit?action=auth.sign_in&limit=200'),
    );
    const factors = page.entries.map((entry) => entry.details?.factor).filter(Boolean);
    expect(factors).toEqual(expect.arrayContaining(['totp', 'recovery_code']));
    const added = await expectJson<AuditPage>(
      sendJson(server, adminCookie, 'GET', '/api/admin/audit?action=factor.added'),
    );
    expect(added.entries[0]).toMatchObject({ actor: 'admin', target: 'user:admin', details: { factor: 'totp' } });
  });

  it('regenerates recovery codes and turns the app off with the account password, not a code', async () => {
    now = START + 900_000;
    const regenerated = await expectJson<RecoveryCodesResponse>(
      sendJson(server, adminCookie, 'POST', '/api/me/recovery-codes', { code: oathtool(secret, now) }),
    );
    expect(regenerated.recoveryCodes).toHaveLength(10);
    const old = await startSignIn();
    expect((await finish(old, recoveryCodes[1] ?? '')).status).toBe(400);
    expect((await finish(old, regenerated.recoveryCodes[0] ?? '')).status).toBe(200);

    // An account with a password here turns the app off with its password; a code alone is not enough.
    expect(await expectJson(sendJson(server, adminCookie, 'GET', '/api/me/second-factors'))).toMatchObject({
      turnOffWith: 'password',
    });
    now += 30_000;
    const codeOnly = await sendJson(server, adminCookie, 'DELETE', '/api/me/totp', { code: oathtool(secret, now) });
    expect(codeOnly.status).toBe(400);
    expect(await readError(codeOnly)).toMatchObject({
      message: 'Enter your password to turn the authenticator app off.',
    });
    const wrong = await sendJson(server, adminCookie, 'DELETE', '/api/me/totp', { password: 'not-the-password' });
    expect(wrong.status).toBe(403);
    expect(await readError(wrong)).toMatchObject({ message: 'That password is not right.' });
    expect((await sendJson(server, adminCookie, 'DELETE', '/api/me/totp', {})).status).toBe(400);
    expect((await startSignIn()).length).toBeGreaterThan(0); // still on
    const off = await sendJson(server, adminCookie, 'DELETE', '/api/me/totp', { password: TEST_ADMIN_PASSWORD });
    expect(off.status).toBe(200);
    expect((await login()).status).toBe(200);
    const removed = await expectJson<AuditPage>(
      sendJson(server, adminCookie, 'GET', '/api/admin/audit?action=factor.removed'),
    );
    expect(removed.entries[0]).toMatchObject({ details: { factor: 'totp' } });
  });

  it("turns an identity provider account's app off with a current code or a recovery code (no password here)", async () => {
    now = START + 1_500_000;
    const dana = await server.signInAs({
      owner_key: 'dana',
      oidc_issuer: 'https://idp.example.test',
      oidc_subject: 'd',
    });
    const enrolment = await expectJson<TotpEnrolment>(sendJson(server, dana, 'POST', '/api/me/totp'));
    const codes = await expectJson<RecoveryCodesResponse>(
      sendJson(server, dana, 'POST', '/api/me/totp/verify', { code: oathtool(enrolment.secret, now) }),
    );
    expect(await expectJson(sendJson(server, dana, 'GET', '/api/me/second-factors'))).toMatchObject({
      totp: true,
      turnOffWith: 'code',
    });
    expect((await sendJson(server, dana, 'DELETE', '/api/me/totp', { password: 'anything-at-all' })).status).toBe(400);
    expect((await sendJson(server, dana, 'DELETE', '/api/me/totp', { code: '000000' })).status).toBe(400);
    expect((await sendJson(server, dana, 'DELETE', '/api/me/totp', { code: codes.recoveryCodes[0] })).status).toBe(200);
    expect(await expectJson(sendJson(server, dana, 'GET', '/api/me/second-factors'))).toMatchObject({ totp: false });
  });

  it('takes a person without a factor to enrolment when the policy requires one', async () => {
    now = START + 2_000_000;
    const alice = await server.signInAs({
      owner_key: 'alice',
      oidc_issuer: 'https://idp.example.test',
      oidc_subject: 'a',
    });
    expect((await sendJson(server, alice, 'PUT', '/api/admin/second-factor-policy', { policy: 'admins' })).status).toBe(
      403,
    );
    const bad = await sendJson(server, adminCookie, 'PUT', '/api/admin/second-factor-policy', { policy: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(
      await expectJson(sendJson(server, adminCookie, 'PUT', '/api/admin/second-factor-policy', { policy: 'admins' })),
    ).toEqual({ policy: 'admins' });
    expect(await expectJson(sendJson(server, alice, 'GET', '/api/me/second-factors'))).toMatchObject({
      required: false,
    });

    const response = await login();
    expect(response.status).toBe(401);
    expect(await readError(response)).toMatchObject({ code: 'SECOND_FACTOR_ENROLMENT_REQUIRED' });
    expect(cookieFrom(response, 'atrium_session')).toBeUndefined();
    const pending = cookieFrom(response, 'atrium_pending') ?? '';
    // The pending enrolment is no session and no code step.
    expect((await sendJson(server, pending, 'GET', '/api/me')).status).toBe(401);
    expect((await finish(pending, '123456')).status).toBe(401);

    const enrolment = await expectJson<TotpEnrolment>(sendJson(server, pending, 'POST', '/api/auth/login/enrol'));
    const wrong = await sendJson(server, pending, 'POST', '/api/auth/login/enrol/verify', { code: '000000' });
    expect(wrong.status).toBe(400);
    const done = await sendJson(server, pending, 'POST', '/api/auth/login/enrol/verify', {
      code: oathtool(enrolment.secret, now),
    });
    expect(done.status).toBe(200);
    const body = await readJson<MeResponse & { recoveryCodes: string[] }>(done);
    expect(body).toMatchObject({ ownerKey: 'admin' });
    expect(body.recoveryCodes).toHaveLength(10);
    const session = cookieFrom(done, 'atrium_session') ?? '';
    expect(await expectJson(sendJson(server, session, 'GET', '/api/me/second-factors'))).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      required: true,
      turnOffWith: 'password',
    });
    // From now on the password is followed by the code step.
    now += 30_000;
    const next = await startSignIn();
    expect((await finish(next, oathtool(enrolment.secret, now))).status).toBe(200);
    const policy = await expectJson<AuditPage>(
      sendJson(server, session, 'GET', '/api/admin/audit?action=mfa.policy.changed'),
    );
    expect(policy.entries[0]).toMatchObject({ actor: 'admin', details: { from: 'nobody', to: 'admins' } });
  });

  it('`npm run admin -- reset-2fa admin` removes the factors on the server', async () => {
    const handle = openDatabase(server.config.database);
    try {
      await expect(resetTwoFactor(handle.db, { now: () => new Date(now) }, 'nobody-here')).rejects.toThrow(
        'No user named nobody-here.',
      );
      expect(await resetTwoFactor(handle.db, { now: () => new Date(now) }, 'admin')).toContain(
        'Removed the second factors of admin (authenticator app: yes, passkeys: 0)',
      );
    } finally {
      await handle.close();
    }
    // The policy still asks admins for a factor: the admin is taken to enrolment, not asked for a code.
    const held = await login();
    expect(await readError(held)).toMatchObject({ code: 'SECOND_FACTOR_ENROLMENT_REQUIRED' });
    const session = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    await expectJson(sendJson(server, session, 'PUT', '/api/admin/second-factor-policy', { policy: 'nobody' }));
    expect((await login()).status).toBe(200);
    const audit = await expectJson<AuditPage>(
      sendJson(server, session, 'GET', '/api/admin/audit?action=factor.removed&target=user:admin'),
    );
    expect(audit.entries[0]).toMatchObject({ actor: null, details: { factor: 'all', by: 'reset-2fa' } });
  });
});

const readJson = async <T>(response: Response) => (await response.json()) as T;
