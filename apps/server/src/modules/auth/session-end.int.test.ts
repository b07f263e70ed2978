import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, startTestServer, type TestServer } from '../../../test/helpers';
import { createSessionService } from './sessions.service';

/**
 * A 401 says why there is no session (docs/PRODUCT.md#session-end-reasons): `signed_out` after a sign-out or an
 * admin's revoke, `expired` after the idle or absolute limit (also once swept), `disabled` for a disabled account,
 * `missing` without a cookie; each with its sentence.
 */
describe.each(dialects())('why a session ended (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date('2026-11-21T09:00:00Z');

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      overrides: { clock: { now: () => now } },
      env: { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '3' },
    });
  });
  afterAll(async () => server?.close());

  /** The hourly sweep, as the scheduler runs it (same limits and clock as the server). */
  const sweep = () =>
    createSessionService({
      db: server.app.database.db,
      clock: { now: () => now },
      idleMs: 30 * 60_000,
      absoluteMs: 3 * 3600_000,
    }).sweep();
  const me = (cookie?: string) => server.fetch('/api/me', { headers: cookie ? { cookie } : {} });
  const reasonOf = async (cookie?: string) => {
    const response = await me(cookie);
    expect(response.status).toBe(401);
    const error = await readError(response);
    expect(error.code).toBe('UNAUTHENTICATED');
    return { reason: error.reason, message: error.message };
  };

  it('answers missing without a cookie', async () => {
    expect(await reasonOf()).toEqual({ reason: 'missing', message: 'Please sign in to continue.' });
  });

  it('answers signed_out after a sign-out and after an admin revoked the sessions', async () => {
    now = new Date('2026-11-21T09:00:00Z');
    const cookie = await server.signInAs({ owner_key: 'end-out' });
    const logout = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(await reasonOf(cookie)).toEqual({
      reason: 'signed_out',
      message: 'You were signed out on another device or by an admin. Please sign in again.',
    });

    const other = await server.signInAs({ owner_key: 'end-revoked' });
    expect((await me(other)).status).toBe(200);
    const admin = await server.signInAs({ owner_key: 'end-admin', role: 'admin' });
    const revoke = await server.fetch('/api/admin/users/end-revoked/sessions', {
      method: 'DELETE',
      headers: { cookie: admin },
    });
    expect(revoke.status).toBe(200);
    expect((await reasonOf(other)).reason).toBe('signed_out');
  });

  it('answers expired after the idle limit, also after the sweep removed the session', async () => {
    now = new Date('2026-11-21T09:00:00Z');
    const seen = await server.signInAs({ owner_key: 'end-idle' });
    const swept = await server.signInAs({ owner_key: 'end-swept' });
    now = new Date('2026-11-21T09:31:00Z');
    expect(await reasonOf(seen)).toEqual({ reason: 'expired', message: 'Your session expired. Please sign in again.' });
    await sweep();
    expect((await reasonOf(swept)).reason).toBe('expired');
  });

  it('answers disabled for a disabled account, with the account message', async () => {
    now = new Date('2026-11-21T09:00:00Z');
    const cookie = await server.signInAs({ owner_key: 'end-disabled' });
    const admin = await server.signInAs({ owner_key: 'end-admin-2', role: 'admin' });
    const disable = await server.fetch('/api/admin/users/end-disabled', {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disable.status).toBe(200);
    expect(await reasonOf(cookie)).toEqual({
      reason: 'disabled',
      message: 'Your account has been disabled. Ask an admin to enable it.',
    });
  });

  it('answers expired for a token it never saw, and keeps ends only for the absolute lifetime', async () => {
    expect((await reasonOf('atrium_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).reason).toBe('expired');
    now = new Date('2026-11-21T09:00:00Z');
    const cookie = await server.signInAs({ owner_key: 'end-old' });
    await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    now = new Date('2026-11-21T12:30:00Z');
    await sweep();
    expect((await reasonOf(cookie)).reason).toBe('expired');
  });
});
