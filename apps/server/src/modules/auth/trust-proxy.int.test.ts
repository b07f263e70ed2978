import { afterEach, describe, expect, it } from 'vitest';
import { dialects, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * The sign-in limit counts failures per client IP. X-Forwarded-For names that IP only when the
 * connection comes from a proxy listed in TRUST_PROXY (the test client connects from 127.0.0.1).
 */
describe.each(dialects())('TRUST_PROXY and the per-IP sign-in limit (%s)', (dialect) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (trustProxy: string) => {
    server = await startTestServer({
      dialect,
      env: { TRUST_PROXY: trustProxy, LOGIN_MAX_FAILURES_PER_IP: '2', LOGIN_MAX_FAILURES_PER_USERNAME: '100' },
    });
    return server;
  };
  const failLogin = (target: TestServer, forwardedFor: string, username: string) =>
    target.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ username, password: 'wrong password' }),
    });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const target = await start('10.0.0.0/8');
    expect((await failLogin(target, '198.51.100.1', 'a')).status).toBe(401);
    expect((await failLogin(target, '198.51.100.2', 'b')).status).toBe(401);
    // A spoofed address does not give a fresh counter: the peer's own IP (127.0.0.1) is counted.
    const spoofed = await failLogin(target, '198.51.100.3', 'c');
    expect(spoofed.status).toBe(429);
  });

  it("counts the client named by a trusted proxy's X-Forwarded-For", async () => {
    const target = await start('127.0.0.1');
    expect((await failLogin(target, '198.51.100.1', 'a')).status).toBe(401);
    expect((await failLogin(target, '198.51.100.1', 'b')).status).toBe(401);
    expect((await failLogin(target, '198.51.100.1', 'c')).status).toBe(429);
    // Another client behind the same proxy has its own counter.
    expect((await failLogin(target, '198.51.100.2', 'd')).status).toBe(401);
  });
});
