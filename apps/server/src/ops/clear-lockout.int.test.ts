import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../test/helpers';
import { ops } from '../../test/ops-cli';

// An operator lifts a sign-in lock-out from the server's shell (docs/DEPLOY.md, "Production checklist").
describe.each(dialects())('npm run clear-lockout (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { LOGIN_MAX_FAILURES_PER_USERNAME: '3' } });
  });
  afterAll(async () => server?.close());

  const login = (password: string, ip: string) =>
    server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ username: 'admin', password }),
    });

  it('lets a locked-out admin sign in again at once, and says when there was nothing to clear', async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect((await login('wrong password', '10.0.0.1')).status).toBe(401);
    const locked = await login(TEST_ADMIN_PASSWORD, '10.0.0.2');
    expect(locked.status).toBe(429);
    expect((await readError(locked)).message).toMatch(/Too many failed sign-in attempts/);

    const env = { DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl };
    const cleared = await ops(['clear-lockout', 'Admin'], env);
    expect(cleared.stderr).toBe('');
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toBe('Cleared the sign-in lock-out of Admin: it may sign in again now.\n');
    expect((await login(TEST_ADMIN_PASSWORD, '10.0.0.2')).status).toBe(200);

    const nothing = await ops(['clear-lockout', 'nobody'], env);
    expect(nothing.stdout).toBe('No failed sign-ins are counted for nobody: nothing to clear.\n');
    expect((await ops(['clear-lockout'], env)).stderr).toMatch(/^usage: atrium-ops /);
  });
});
