import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/** A server over a fake web build: index.html plus the given files under pages/ (and others beside it). */
function serveWebBuild(pages: Record<string, string>, others: Record<string, string> = {}) {
  const state: { server: TestServer | undefined; webDist: string } = { server: undefined, webDist: '' };
  beforeAll(async () => {
    state.webDist = mkdtempSync(path.join(tmpdir(), 'atrium-web-'));
    mkdirSync(path.join(state.webDist, 'pages'));
    writeFileSync(path.join(state.webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    const files = [
      ...Object.entries(pages).map(([file, content]) => [path.join('pages', file), content] as const),
      ...Object.entries(others),
    ];
    for (const [file, content] of files) {
      mkdirSync(path.dirname(path.join(state.webDist, file)), { recursive: true });
      writeFileSync(path.join(state.webDist, file), content);
    }
    state.server = await startTestServer({ env: { WEB_DIST: state.webDist } });
  });
  afterAll(async () => {
    await state.server?.close();
    rmSync(state.webDist, { recursive: true, force: true });
  });
  return {
    fetch: (url: string, init?: RequestInit) => {
      if (!state.server) throw new Error('server not started');
      return state.server.fetch(url, init);
    },
  };
}

describe('prerendered public pages', () => {
  const server = serveWebBuild({
    'index.html': '<!doctype html><div id="root">home page</div>',
    'pricing.html': '<!doctype html><div id="root">pricing page</div>',
  });

  it('answers a prerendered path with its page, and every other route with the empty shell', async () => {
    const expectations: [string, string][] = [
      ['/', 'home page'],
      ['/pricing', 'pricing page'],
      ['/pricing/', 'pricing page'],
      ['/pricing?ref=ad', 'pricing page'],
      ['/dashboard', '<div id="root"></div>'],
      ['/dashboard/pricing', '<div id="root"></div>'],
      ['/no-such-page', '<div id="root"></div>'],
    ];
    for (const [url, body] of expectations) {
      const response = await server.fetch(url, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text(), url).toContain(body);
    }
  });
});

describe('unknown paths', () => {
  const server = serveWebBuild({
    'index.html': '<!doctype html><div id="root">home page</div>',
    'about.html': '<!doctype html><div id="root">about page</div>',
    '404.html': '<!doctype html><div id="root">not found page</div>',
    'routes.json': JSON.stringify([
      '/',
      '/about',
      '/login',
      '/dashboard',
      '/dashboard/files',
      '/dashboard/file-download/:fileId?',
    ]),
  });

  it('answers 404 with the prerendered not-found page outside the route table, and 200 on its routes', async () => {
    const expectations: [string, number, string][] = [
      ['/', 200, 'home page'],
      ['/about', 200, 'about page'],
      ['/login', 200, '<div id="root"></div>'],
      ['/login/?next=1', 200, '<div id="root"></div>'],
      ['/dashboard', 200, '<div id="root"></div>'],
      ['/dashboard/files', 200, '<div id="root"></div>'],
      ['/dashboard/file-download', 200, '<div id="root"></div>'],
      ['/dashboard/file-download/abc', 200, '<div id="root"></div>'],
      ['/no-such-page', 404, 'not found page'],
      ['/about/team', 404, 'not found page'],
      ['/404', 404, 'not found page'],
      ['/dashboard/file-download/abc/def', 404, '<div id="root"></div>'],
      // Inside the dashboard the SPA shows its own not-found page (linking back to the dashboard).
      ['/dashboard/no-such-page', 404, '<div id="root"></div>'],
    ];
    for (const [url, status, body] of expectations) {
      const response = await server.fetch(url, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      expect(response.status, url).toBe(status);
      expect(response.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      expect(await response.text(), url).toContain(body);
    }
  });

  it('keeps JSON 404s for API paths and missing files', async () => {
    const api = await server.fetch('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('ROUTE_NOT_FOUND');
    const file = await server.fetch('/no-such-file.png');
    expect(file.status).toBe(404);
    expect(((await file.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

describe('the dashboard frame', () => {
  const server = serveWebBuild(
    {
      'index.html': '<!doctype html><div id="root">home page</div>',
      '404.html': '<!doctype html><div id="root">not found page</div>',
      'dashboard.html': '<!doctype html><div id="root">dashboard frame, home preloaded</div>',
      'dashboard/files.html': '<!doctype html><div id="root">dashboard frame, files preloaded</div>',
      'routes.json': JSON.stringify(['/', '/login', '/dashboard', '/dashboard/files', '/dashboard/profile']),
    },
    { 'shell/dashboard.html': '<!doctype html><div id="root">dashboard frame</div>' },
  );

  it('answers every path below /dashboard with its frame, the pages people land on with their own', async () => {
    const expectations: [string, number, string][] = [
      ['/dashboard', 200, 'dashboard frame, home preloaded'],
      ['/dashboard/', 200, 'dashboard frame, home preloaded'],
      ['/dashboard/files', 200, 'dashboard frame, files preloaded'],
      ['/dashboard/profile?tab=security', 200, '<div id="root">dashboard frame</div>'],
      // The dashboard's own not-found page shows after sign-in, over the same frame.
      ['/dashboard/no-such-page', 404, '<div id="root">dashboard frame</div>'],
      ['/login', 200, '<div id="root"></div>'],
      ['/dashboards', 404, 'not found page'],
    ];
    for (const [url, status, body] of expectations) {
      const response = await server.fetch(url, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      expect(response.status, url).toBe(status);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      expect(await response.text(), url).toContain(body);
    }
  });
});
