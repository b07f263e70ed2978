import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, rawRequest, readJson, startTestServer, type TestServer } from './helpers';

const IDLE_MS = 1000;
const b64 = (text: string) => Buffer.from(text).toString('base64');

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => 'done'), new Promise((resolve) => setTimeout(() => resolve('still open'), ms))]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Request bodies that stop arriving are closed after BODY_IDLE_TIMEOUT_MS (408 in the error
 * shape); bodies that keep flowing are never cut, however long they take.
 */
describe.each(dialects())('request body idle timeout (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { BODY_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    alice = await server.signInAs({ owner_key: 'alice' });
  });
  afterAll(async () => server?.close());

  it('answers 408 and closes the connection when an anonymous contact form body stalls', async () => {
    const exchange = await rawRequest(
      server,
      'POST /api/contact HTTP/1.1\nContent-Type: application/json\nContent-Length: 200\n',
      '{"name":"Slow',
    );
    expect(await within(exchange.closed, IDLE_MS * 6)).toBe('done');
    expect(exchange.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.answer()).toContain('"code":"REQUEST_TIMEOUT"');
    const messages = await server.fetch('/api/contact', {
      headers: { cookie: await server.signInAs({ owner_key: 'root', role: 'admin' }) },
    });
    expect(await readJson<unknown[]>(messages)).toEqual([]);
  });

  it('closes a stalled multipart upload and keeps nothing of it', async () => {
    const boundary = 'stall';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    const exchange = await rawRequest(
      server,
      `POST /api/files/upload?userId=alice HTTP/1.1\nCookie: ${alice}\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\nContent-Length: 100000\n`,
      Buffer.concat([Buffer.from(head), randomBytes(20_000)]),
    );
    expect(await within(exchange.closed, IDLE_MS * 6)).toBe('done');
    expect(exchange.answer()).toMatch(/^HTTP\/1\.1 408 /);
    const stats = await server.fetch('/api/files/user-stats/alice', { headers: { cookie: alice } });
    expect(await stats.json()).toMatchObject({ fileCount: 0 });
  });

  it('ends a stalled tus PATCH: the bytes that arrived are kept and HEAD reports them', async () => {
    const tus = { 'tus-resumable': '1.0.0', cookie: alice };
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': '100000',
        'upload-metadata': `filename ${b64('a.bin')},userId ${b64('alice')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const exchange = await rawRequest(
      server,
      `PATCH ${location} HTTP/1.1\nCookie: ${alice}\nTus-Resumable: 1.0.0\nUpload-Offset: 0\n` +
        'Content-Type: application/offset+octet-stream\nContent-Length: 100000\n',
      randomBytes(40_000),
    );
    expect(await within(exchange.closed, IDLE_MS * 6)).toBe('done');
    await expect
      .poll(async () => (await server.fetch(location, { method: 'HEAD', headers: tus })).headers.get('upload-offset'), {
        timeout: 5000,
      })
      .toBe('40000');
  });

  it('never cuts a slow body that keeps sending', async () => {
    const body = JSON.stringify({ name: 'Patient', email: 'patient@example.test', message: 'x'.repeat(200) });
    const exchange = await rawRequest(
      server,
      `POST /api/contact HTTP/1.1\nContent-Type: application/json\nContent-Length: ${body.length}\n`,
    );
    // Longer than the idle timeout in total, never idle as long as it.
    const pieces = body.match(/.{1,20}/g) ?? [];
    for (const piece of pieces) {
      await sleep(IDLE_MS / 5);
      exchange.socket.write(piece);
    }
    await expect.poll(() => exchange.answer(), { timeout: 5000 }).toMatch(/^HTTP\/1\.1 201 /);
    exchange.socket.destroy();
  });

  // An answer sent before the body is read (401, 403, 413 here; 429 below) leaves the rest of the body to arrive:
  // when it stalls, the connection is closed within the same idle limit, not kept for the keep-alive timeout.
  it.each([
    ['401 to an anonymous upload', 'POST /api/files/upload?userId=alice HTTP/1.1\n', 401],
    ['403 to a user on an admin route', 'PATCH /api/admin/users/alice HTTP/1.1\nCookie: {alice}\n', 403],
    ['413 to a body over the limit', 'POST /api/contact HTTP/1.1\n', 413, 2 * 1024 * 1024],
  ] as const)(
    'closes a connection answered early (%s) whose body then stalls',
    async (_label, head, status, length = 5000) => {
      const exchange = await rawRequest(
        server,
        `${head.replace('{alice}', alice)}Content-Type: application/json\nContent-Length: ${length}\n`,
        '{"name":"Sl',
      );
      await expect.poll(() => exchange.answer(), { timeout: 5000 }).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(await within(exchange.closed, IDLE_MS * 6)).toBe('done');
    },
  );

  it('keeps the connection of a client answered early that sends its whole body', async () => {
    const host = new URL(server.url).host;
    const body = 'x'.repeat(5000);
    const upload = `POST /api/files/upload?userId=alice HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const next = `GET /api/auth/config HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    // The upload's answer comes before its body: the body follows slowly, never idle as long as the limit.
    const url = new URL(server.url);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    try {
      socket.write(upload);
      await expect.poll(() => received, { timeout: 3000 }).toMatch(/^HTTP\/1\.1 401 /);
      for (const piece of body.match(/.{1,1000}/g) ?? []) {
        await sleep(IDLE_MS / 4);
        socket.write(piece);
      }
      const seen = received.length;
      socket.write(next);
      await expect.poll(() => received.slice(seen), { timeout: 3000 }).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });
});

/**
 * Rate-limited routes refuse a client over its limit before reading the body: a request whose
 * body never comes is answered 429 at once.
 */
describe.each(dialects())('rate limits before the body (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: {
        AI_VOICE_COMMANDS_PER_MINUTE: '1',
        CONTACT_MAX_PER_HOUR: '1',
        LOGIN_MAX_FAILURES_PER_IP: '1',
        BODY_IDLE_TIMEOUT_MS: String(IDLE_MS),
      },
    });
  });
  afterAll(async () => server?.close());

  /** Sends only the headers of a POST announcing a body, and waits briefly for an answer. */
  async function headersOnly(path: string, type: string) {
    const exchange = await rawRequest(server, `POST ${path} HTTP/1.1\nContent-Type: ${type}\nContent-Length: 500000\n`);
    await expect.poll(() => exchange.answer(), { timeout: 2000 }).toMatch(/^HTTP\/1\.1 \d{3} /);
    exchange.socket.destroy();
    const answer = exchange.answer();
    return { status: Number(answer.slice(9, 12)), answer };
  }

  it('the public voice command', async () => {
    // The first one is spent (an empty recording still counts).
    const first = await server.fetch('/api/assistant/voice-command', {
      method: 'POST',
      headers: { 'content-type': 'audio/wav' },
      body: Buffer.alloc(0),
    });
    expect(first.status).toBe(400);
    const refused = await headersOnly('/api/assistant/voice-command', 'audio/wav');
    expect(refused.status).toBe(429);
    expect(refused.answer).toMatch(/retry-after: \d+/i);
    expect(refused.answer).toContain('"code":"RATE_LIMITED"');
  });

  it("the contact form's per-IP limit", async () => {
    const sent = await server.fetch('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ann', email: 'ann@example.test', message: 'Hello there, Atrium team!' }),
    });
    expect(sent.status).toBe(201);
    const refused = await headersOnly('/api/contact', 'application/json');
    expect(refused.status).toBe(429);
    expect(refused.answer).toContain('You have sent several messages already. Please try again later.');
  });

  it("the admin sign-in's per-IP counter", async () => {
    const wrong = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not the password' }),
    });
    expect(wrong.status).toBe(401);
    const refused = await headersOnly('/api/auth/login', 'application/json');
    expect(refused.status).toBe(429);
    expect(refused.answer).toContain('Too many failed sign-in attempts. Please try again in 15 minutes.');
  });

  it('closes a connection answered 429 whose body then stalls, within the body idle limit', async () => {
    // Spends the per-IP limit (a second wrong sign-in is refused already: either way the next one is 429).
    await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not the password' }),
    });
    const exchange = await rawRequest(
      server,
      'POST /api/auth/login HTTP/1.1\nContent-Type: application/json\nContent-Length: 5000\n',
      '{"username"',
    );
    await expect.poll(() => exchange.answer(), { timeout: 5000 }).toMatch(/^HTTP\/1\.1 429 /);
    expect(await within(exchange.closed, IDLE_MS * 6)).toBe('done');
  });
});

/** Sends requests one after another on one keep-alive connection; resolves with each answer's status. */
async function onOneConnection(server: TestServer, requests: string[]): Promise<number[]> {
  const url = new URL(server.url);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const statuses: number[] = [];
  try {
    for (const request of requests) {
      const seen = received.length;
      socket.write(request);
      await expect.poll(() => /HTTP\/1\.1 \d{3} /.test(received.slice(seen)), { timeout: 3000 }).toBe(true);
      statuses.push(Number(/HTTP\/1\.1 (\d{3}) /.exec(received.slice(seen))?.[1]));
    }
  } finally {
    socket.destroy();
  }
  return statuses;
}

describe('development identity provider login form', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('answers 413 to a form over 16 KB and keeps the keep-alive connection usable', async () => {
    const host = new URL(server.url).host;
    const big = `username=${'a'.repeat(20 * 1024)}&password=x`;
    const post = (headers: string, body: string) =>
      `POST /oidc/interaction/any/login HTTP/1.1\r\nHost: ${host}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\n${headers}\r\n${body}`;
    const chunked = `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    const next = `GET /api/auth/config HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    expect(await onOneConnection(server, [post(`Content-Length: ${big.length}\r\n`, big), next])).toEqual([413, 200]);
    expect(await onOneConnection(server, [post('Transfer-Encoding: chunked\r\n', chunked), next])).toEqual([413, 200]);
  });
});
