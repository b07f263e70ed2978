import http from 'node:http';
import net from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorResponse } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, type TestServer } from './helpers';

describe.each(dialects())('platform (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it('answers liveness and readiness, checking the database', async () => {
    const health = await server.fetch('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await server.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' } } });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    for (const url of ['/api/nope', '/public/api/nope', '/api']) {
      const response = await server.fetch(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const error = await readError(response);
      expect(error).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: expect.stringContaining(url) });
      expect(error.requestId).toBe(response.headers.get('x-request-id'));
    }
  });

  it('answers a malformed percent-encoding or an overlong path parameter with a JSON 400', async () => {
    const cookie = await server.signInAs({ owner_key: 'router-user' });
    for (const url of ['/api/files/%E0%A4%A', `/api/files/${'p'.repeat(150)}`, '/api/ai/keys/%E0%A4%A']) {
      // fetch would re-encode the path: send it as is.
      const response = await server.app.inject({
        method: url.startsWith('/api/ai') ? 'DELETE' : 'GET',
        url,
        headers: { cookie },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const error = ErrorResponse.parse(response.json()).error;
      expect(error).toMatchObject({ code: 'BAD_REQUEST', requestId: response.headers['x-request-id'] });
    }
  });

  it('answers a malformed JSON body with 400 INVALID_JSON and changes nothing', async () => {
    const response = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username": "admin", ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
    });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers schema violations with 400 VALIDATION_FAILED and field details', async () => {
    const response = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: '' }),
    });
    expect(response.status).toBe(400);
    const error = await readError(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.map((d) => d.path)).toEqual(expect.arrayContaining(['body.username', 'body.password']));
  });

  it('answers an oversized body with 413 and an unknown media type with 415', async () => {
    const big = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
    });
    expect(big.status).toBe(413);
    expect((await readError(big)).code).toBe('PAYLOAD_TOO_LARGE');

    const xml = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<login/>',
    });
    expect(xml.status).toBe(415);
    expect((await readError(xml)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('tags every response with a request id, echoing a valid inbound one', async () => {
    const generated = await server.fetch('/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await server.fetch('/healthz', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc-123');
  });

  const HELMET_HEADERS = [
    'content-security-policy',
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
    'origin-agent-cluster',
    'referrer-policy',
    'x-content-type-options',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-frame-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];
  it('sends security headers with a strict Content-Security-Policy', async () => {
    const response = await server.fetch('/healthz');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // Every header helmet sets, on every response (they are computed once at start-up).
    expect(Object.fromEntries([...response.headers].filter(([name]) => HELMET_HEADERS.includes(name)))).toEqual({
      'content-security-policy': csp,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    const other = await server.fetch('/api/me');
    expect(other.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(other.headers.get('content-security-policy')).toBe(csp);
  });

  it('keeps /metrics off without METRICS_TOKEN: 404 like any unknown path', async () => {
    const response = await server.fetch('/metrics');
    expect(response.status).toBe(404);
    expect((await readError(response)).code).toBe('NOT_FOUND');
  });

  it('publishes an OpenAPI document generated from the contracts', async () => {
    const response = await server.fetch('/api/docs');
    expect(response.status).toBe(200);
    const doc = await readJson<{ openapi: string; paths: object; components: { schemas: object } }>(response);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/api/me', '/api/auth/login']),
    );
    expect(doc.components.schemas).toHaveProperty('ErrorResponse');
  });
});

describe('metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdef';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => server?.close());

  it('refuses callers without the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${token}`, `Bearer ${token}x`]) {
      const response = await server.fetch('/metrics', { headers: authorization ? { authorization } : {} });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const error = await readError(response);
      expect(error.code).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(error)).not.toContain('process_');
    }
  });

  it('exposes Prometheus metrics with request durations by route to the token holder', async () => {
    await server.fetch('/healthz');
    const response = await server.fetch('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/);
  });
});

describe('serving the built SPA', () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'atrium-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Atrium</title><div id="root"></div>');
    writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(webDist, 'favicon.svg'), '<svg/>');
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers client routes with index.html, revalidated on every load', async () => {
    for (const url of ['/', '/dashboard/files', '/pricing?ref=x']) {
      const response = await server.fetch(url, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year', async () => {
    const response = await server.fetch('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const favicon = await server.fetch('/favicon.svg');
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
  });

  it('supports conditional requests on assets', async () => {
    // inject() rather than fetch(): undici's fetch marks conditional requests no-cache, which forces a 200.
    const first = await server.app.inject({ url: '/assets/index-abc123.js' });
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const second = await server.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'if-none-match': String(etag) },
    });
    expect(second.statusCode).toBe(304);
  });

  it('never falls back to the SPA for API paths or missing files', async () => {
    const api = await server.fetch('/api/no-such-module/nothing', { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect((await readError(api)).code).toBe('ROUTE_NOT_FOUND');
    const missing = await server.fetch('/assets/missing-file.js');
    expect(missing.status).toBe(404);
    expect((await readError(missing)).code).toBe('NOT_FOUND');
  });
});

describe('lifecycle', () => {
  it('migrates once and starts again on the same data folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-restart-'));
    const first = await startTestServer({ dataDir });
    const cookie = await first.signInAs({ owner_key: 'alice' });
    await first.close();
    const second = await startTestServer({ dataDir });
    const me = await second.fetch('/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await readJson<{ ownerKey: string }>(me)).ownerKey).toBe('alice');
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on close, finishes requests in flight and refuses new ones', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await startTestServer({
      // A route that waits, standing in for any slow request (an upload, an AI job).
      setup: (app) => app.get('/test/slow', async () => (await gate, { done: true })),
    });
    const inFlight = server.fetch('/test/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = server.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      // A new connection is refused once shutdown has begun.
      const fresh = await new Promise<string>((resolve) => {
        http
          .get(`${server.url}/healthz`, { agent: false }, (res) => resolve(String(res.statusCode)))
          .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(fresh).toBe('ECONNREFUSED');
    } finally {
      release();
    }
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closing;
  });

  it('on close, serves a request on a connection accepted before the listener closed; /readyz says 503', async () => {
    const server = await startTestServer({});
    let count = 0;
    const accepted = new Promise<void>((resolve) =>
      server.app.server.on('connection', () => ++count === 2 && resolve()),
    );
    // Connections a balancer opened just before the instance stopped listening, with no request sent yet.
    const [health, ready] = [rawConnection(server.url), rawConnection(server.url)];
    await Promise.all([health.open, ready.open, accepted]);
    const closing = server.close();
    while (server.app.server.listening) await new Promise((resolve) => setImmediate(resolve));

    const healthAnswer = await health.send('GET /healthz HTTP/1.1\r\nHost: atrium\r\n\r\n');
    expect(healthAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(healthAnswer).toMatch(/\r\nconnection: close\r\n/i);
    expect(healthAnswer).toContain('{"status":"ok"}');
    const readyAnswer = await ready.send('GET /readyz HTTP/1.1\r\nHost: atrium\r\n\r\n');
    expect(readyAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(readyAnswer).toContain('"shutdown":{"status":"error"}');
    await closing;
  });
});

/** A raw TCP connection: `send` writes a request and answers everything read until the server closes it. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const open = new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const send = (request: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.once('error', reject);
      socket.once('close', () => resolve(answer));
      socket.write(request);
    });
  return { open, send };
}
