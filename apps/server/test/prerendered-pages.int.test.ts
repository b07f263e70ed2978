import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

describe('prerendered public pages', () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'atrium-web-'));
    mkdirSync(path.join(webDist, 'pages'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webDist, 'pages', 'index.html'), '<!doctype html><div id="root">home page</div>');
    writeFileSync(path.join(webDist, 'pages', 'pricing.html'), '<!doctype html><div id="root">pricing page</div>');
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
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
