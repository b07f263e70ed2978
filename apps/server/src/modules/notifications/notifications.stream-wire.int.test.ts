import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestServer, type RawExchange, type TestServer } from '../../../test/helpers';

/**
 * The notification stream as bytes on the wire. HTTP/1.1 streams are written by the hub straight to the socket
 * (head, chunks, last chunk), so this checks what ServerResponse used to guarantee: a well-formed head with the
 * security headers and request id, chunked frames, and a clean end. HTTP/1.0 clients get the same stream unframed.
 */
describe('notification stream on the wire', () => {
  let server: TestServer;
  let admin: string;
  const open: RawExchange[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => {
    for (const exchange of open) exchange.socket.destroy();
    await server?.close();
  });

  const until = async (check: () => boolean, timeoutMs = 3000) => {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const publish = async (message: string) => {
    const response = await server.fetch('/public/api/notifications', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ message, type: 'admin' }),
    });
    expect(response.status).toBe(200);
  };
  const headOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n\r\n') + 4);
  const signOut = async (cookie: string) => {
    const response = await server.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(response.status).toBe(200);
  };

  it('HTTP/1.1: one well-formed head with the security headers, chunked frames, and the last chunk at sign-out', async () => {
    const cookie = await server.signInAs({ owner_key: 'wire-one' });
    const exchange = await rawRequest(
      server,
      `GET /public/api/notifications/stream HTTP/1.1\nCookie: ${cookie}\nX-Request-Id: wire-test-1\n`,
    );
    open.push(exchange);
    await until(() => exchange.answer().includes('connected'));
    const head = headOf(exchange.answer());
    expect(head.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    const lines = head.trim().split('\r\n').slice(1);
    const names = lines.map((line) => line.slice(0, line.indexOf(':')));
    expect(new Set(names).size).toBe(names.length);
    expect(lines).toEqual(
      expect.arrayContaining([
        'content-type: text/event-stream; charset=utf-8',
        'cache-control: no-cache, no-transform',
        'transfer-encoding: chunked',
        'x-request-id: wire-test-1',
        'x-content-type-options: nosniff',
        'x-frame-options: SAMEORIGIN',
      ]),
    );
    expect(lines.some((line) => line.startsWith("content-security-policy: default-src 'self'"))).toBe(true);
    const body = () => exchange.answer().slice(head.length);
    expect(body()).toBe('19\r\nretry: 3000\n: connected\n\n\r\n');

    await publish('over the wire');
    await until(() => body().includes('over the wire'));
    const frame = body().slice('19\r\nretry: 3000\n: connected\n\n\r\n'.length);
    const size = Number.parseInt(frame.slice(0, frame.indexOf('\r\n')), 16);
    const data = frame.slice(frame.indexOf('\r\n') + 2);
    expect(Buffer.byteLength(data.slice(0, size))).toBe(size);
    expect(data.slice(0, size)).toMatch(/^id: \d+\ndata: \{.*"message":"over the wire".*\}\n\n$/);
    expect(data.slice(size, size + 2)).toBe('\r\n');

    await signOut(cookie);
    await exchange.closed;
    expect(exchange.answer().endsWith('\r\n0\r\n\r\n')).toBe(true);
    await until(() => server.app.notificationHub.size === 0);
  });

  it('HTTP/1.0: the same stream without chunk framing, ended by closing the connection', async () => {
    const cookie = await server.signInAs({ owner_key: 'wire-zero' });
    const exchange = await rawRequest(server, `GET /public/api/notifications/stream HTTP/1.0\nCookie: ${cookie}\n`);
    open.push(exchange);
    await until(() => exchange.answer().includes('connected'));
    const head = headOf(exchange.answer());
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(head).toMatch(/\r\ncontent-type: text\/event-stream; charset=utf-8\r\n/);
    expect(exchange.answer().slice(head.length)).toBe('retry: 3000\n: connected\n\n');

    await publish('for an old client');
    await until(() => exchange.answer().includes('for an old client'));
    await signOut(cookie);
    await exchange.closed;
    expect(exchange.answer()).toMatch(/"message":"for an old client".*\}\n\n$/);
  });

  it('a client that goes away is removed at once', async () => {
    const cookie = await server.signInAs({ owner_key: 'wire-gone' });
    const before = server.app.notificationHub.size;
    const exchange = await rawRequest(server, `GET /public/api/notifications/stream HTTP/1.1\nCookie: ${cookie}\n`);
    await until(() => exchange.answer().includes('connected'));
    expect(server.app.notificationHub.size).toBe(before + 1);
    exchange.socket.destroy();
    await until(() => server.app.notificationHub.size === before);
  });
});
