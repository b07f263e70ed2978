import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  readError,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type StartOptions,
  type TestServer,
} from '../../../test/helpers';

const json = { 'content-type': 'application/json' };

/** Where the tests' clock starts; they move it on from here. */
const MORNING = '2026-11-21T09:00:00Z';

/** A test server with `env` whose clock reads `now()` (the suite's own time, which the tests set). */
const startWithClock = (dialect: StartOptions['dialect'], now: () => Date, env: Record<string, string>) =>
  startTestServer({ dialect, overrides: { clock: { now } }, env });

describe.each(dialects())('admin login and sessions (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date(MORNING);

  beforeAll(async () => {
    server = await startWithClock(dialect, () => now, { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '3' });
  });
  afterAll(async () => server?.close());

  const login = (password: string, username = 'admin') =>
    server.fetch('/api/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ username, password }) });
  const me = (cookie?: string) => server.fetch('/api/me', { headers: cookie ? { cookie } : {} });

  it('signs the admin in with an HttpOnly, SameSite=Lax session cookie', async () => {
    now = new Date(MORNING);
    const response = await login(TEST_ADMIN_PASSWORD);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ownerKey: 'admin', role: 'admin', isAdmin: true });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^atrium_session=[\w-]{40,}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const cookie = setCookie.split(';')[0] ?? '';
    const whoami = await me(cookie);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ ownerKey: 'admin', isAdmin: true });
  });

  it('refuses wrong credentials with the documented message and no cookie', async () => {
    for (const [username, password] of [
      ['admin', 'wrong password'],
      ['root', TEST_ADMIN_PASSWORD],
    ] as const) {
      const response = await login(password, username);
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toMatchObject({
        error: {
          code: 'INVALID_CREDENTIALS',
          message: 'Invalid credentials. Please try again or continue with Auth0',
        },
      });
    }
  });

  it('answers /api/me with 401 without a session or with a forged one', async () => {
    expect((await me()).status).toBe(401);
    const forged = await me('atrium_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('ends the session on logout', async () => {
    now = new Date(MORNING);
    const cookie = (await login(TEST_ADMIN_PASSWORD)).headers.get('set-cookie')?.split(';')[0] ?? '';
    const logout = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/atrium_session=;/);
    expect((await me(cookie)).status).toBe(401);
  });

  it('expires a session after the idle limit', async () => {
    now = new Date(MORNING);
    const cookie = await server.signInAs({ owner_key: 'idle-user' });
    now = new Date('2026-11-21T09:29:00Z');
    expect((await me(cookie)).status).toBe(200);
    // Activity at 09:29 moved the idle window: 09:58 is still inside it.
    now = new Date('2026-11-21T09:58:00Z');
    expect((await me(cookie)).status).toBe(200);
    now = new Date('2026-11-21T10:29:00Z');
    expect((await me(cookie)).status).toBe(401);
  });

  it('expires a session at its absolute limit however active it is', async () => {
    now = new Date(MORNING);
    const cookie = await server.signInAs({ owner_key: 'busy-user' });
    for (const time of ['09:25', '09:50', '10:15', '10:40', '11:05', '11:30', '11:55']) {
      now = new Date(`2026-11-21T${time}:00Z`);
      expect((await me(cookie)).status, time).toBe(200);
    }
    now = new Date('2026-11-21T11:59:59Z');
    expect((await me(cookie)).status).toBe(200);
    now = new Date('2026-11-21T12:00:00Z');
    expect((await me(cookie)).status).toBe(401);
  });
});

describe.each(dialects())('admin login rate limiting (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date(MORNING);
  beforeAll(async () => {
    server = await startWithClock(dialect, () => now, {
      LOGIN_MAX_FAILURES_PER_IP: '5',
      LOGIN_MAX_FAILURES_PER_USERNAME: '3',
      LOGIN_FAILURE_WINDOW_MINUTES: '15',
      OIDC_PROVIDER_NAME: 'Okta',
    });
  });
  afterAll(async () => server?.close());

  const login = (username: string, password: string, ip = '127.0.0.1') =>
    server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': ip },
      body: JSON.stringify({ username, password }),
    });

  it('names the configured provider in the wrong-credentials message', async () => {
    const response = await login('someone', 'nope');
    expect(response.status).toBe(401);
    expect((await readError(response)).message).toBe('Invalid credentials. Please try again or continue with Okta');
  });

  it('answers 429 with Retry-After once a username has too many failures, even with the right password', async () => {
    now = new Date('2026-11-21T10:00:00Z');
    for (let i = 0; i < 3; i += 1) expect((await login('admin', `wrong-${i}`)).status).toBe(401);
    const limited = await login('admin', TEST_ADMIN_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(15 * 60));
    expect(limited.headers.get('set-cookie')).toBeNull();
    expect(await readError(limited)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
    });
    now = new Date('2026-11-21T10:10:00Z');
    const later = await login('admin', TEST_ADMIN_PASSWORD);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe(String(5 * 60));
    // After the window the admin gets in, and success clears the counter.
    now = new Date('2026-11-21T10:15:00Z');
    expect((await login('admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect((await login('admin', 'wrong-again')).status).toBe(401);
    expect((await login('admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('limits failures per IP across different usernames', async () => {
    now = new Date('2026-11-21T12:00:00Z');
    // The test server does not trust X-Forwarded-For: every request is 127.0.0.1.
    for (let i = 0; i < 5; i += 1) expect((await login(`user-${i}`, 'x')).status).toBe(401);
    const limited = await login('user-new', 'x');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts failures in the shared database, so parallel guesses cannot exceed the limit', async () => {
    now = new Date('2026-11-21T14:00:00Z');
    // Five at once: within the per-IP limit (5), over the per-username limit (3).
    const statuses = await Promise.all(Array.from({ length: 5 }, (_, i) => login('parallel', `guess-${i}`)));
    expect(statuses.filter((r) => r.status === 401)).toHaveLength(3);
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(2);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'rate limits shared by two instances on one PostgreSQL database',
  () => {
    it('counts failures made on one instance when the next attempt reaches the other', async () => {
      const env = { LOGIN_MAX_FAILURES_PER_USERNAME: '2' };
      const first = await startTestServer({ dialect: 'postgres', env });
      const databaseUrl = first.config.database.kind === 'postgres' ? first.config.database.url : undefined;
      const second = await startTestServer({ databaseUrl, env });
      try {
        const attempt = (server: TestServer, password: string) =>
          server.fetch('/api/auth/login', {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ username: 'admin', password }),
          });
        expect((await attempt(first, 'wrong-1')).status).toBe(401);
        expect((await attempt(second, 'wrong-2')).status).toBe(401);
        const limited = await attempt(first, TEST_ADMIN_PASSWORD);
        expect(limited.status).toBe(429);
        expect((await attempt(second, TEST_ADMIN_PASSWORD)).status).toBe(429);
      } finally {
        await second.close();
        await first.close();
      }
    });
  },
);
