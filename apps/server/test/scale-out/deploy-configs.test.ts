import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers';
import { ConfigError, EnvSchema, loadConfig } from '../../src/config';
import { isSupportedNode } from '../../../../scripts/node-lines.mjs';
import { VAPID_KEYS } from '../vapid-keys';
import { PROXY_SNIPPET, SYSTEMD_UNIT, repoRoot, startNginx, unitEnvironment } from './topology';

/**
 * The files docs/DEPLOY.md tells an operator to install, checked as they are:
 * deploy/nginx/atrium.conf (TLS site, HTTP → HTTPS redirect) served by nginx with only
 * its ports, certificate paths, upstreams and include path replaced, and
 * deploy/systemd/atrium@.service verified by systemd-analyze.
 */
const SITE = path.join(repoRoot, 'deploy/nginx/atrium.conf');
const ENV_EXAMPLE = path.join(repoRoot, 'deploy/systemd/atrium.env.example');

/** Replaces `from` with `to` in `text`, failing when the file no longer has that shape. */
function replaceOrFail(text: string, from: RegExp, to: string): string {
  expect(text, `deploy/nginx/atrium.conf should match ${from}`).toMatch(from);
  return text.replace(from, to);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    // The certificate is self-signed for the test: trust it for this request only.
    const request = client.get(url, { headers, rejectUnauthorized: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });

describe('deploy/nginx/atrium.conf: the TLS site in front of the instances', () => {
  let dir = '';
  let upstream: http.Server;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let httpPort = 0;
  let httpsPort = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'atrium-site-'));
    // An upstream that answers with the headers nginx forwarded.
    upstream = http.createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ url: request.url, headers: request.headers }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const upstreamPort = typeof address === 'object' && address ? address.port : 0;
    const openssl = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=atrium.example.com'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { encoding: 'utf8' },
    );
    expect(openssl.status, openssl.stderr).toBe(0);
    [httpPort, httpsPort] = [await freePort(), await freePort()];

    let site = readFileSync(SITE, 'utf8');
    site = replaceOrFail(site, /^ *listen \[::\]:\d+.*\n/gm, '');
    site = replaceOrFail(site, /listen 80;/, `listen 127.0.0.1:${httpPort};`);
    site = replaceOrFail(site, /listen 443 /, `listen 127.0.0.1:${httpsPort} `);
    site = replaceOrFail(site, /server 127\.0\.0\.1:\d+/g, `server 127.0.0.1:${upstreamPort}`);
    site = replaceOrFail(site, /ssl_certificate \S+;/, `ssl_certificate ${path.join(dir, 'cert.pem')};`);
    site = replaceOrFail(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${path.join(dir, 'key.pem')};`);
    site = replaceOrFail(site, /include \/etc\/nginx\/snippets\/atrium-proxy\.conf;/, `include ${PROXY_SNIPPET};`);
    writeFileSync(path.join(dir, 'atrium.conf'), site);
    nginx = await startNginx(path.join(dir, 'nginx'), httpsPort, [`include ${path.join(dir, 'atrium.conf')};`]);
  });
  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes nginx -t without warnings', () => {
    expect(nginx.warnings).toEqual([]);
  });

  it('redirects HTTP to HTTPS', async () => {
    const answer = await get(`http://127.0.0.1:${httpPort}/files?x=1`, { host: 'atrium.example.com' });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('https://atrium.example.com/files?x=1');
  });

  it('proxies HTTPS with the client address, scheme and host the instances need', async () => {
    const answer = await get(`https://127.0.0.1:${httpsPort}/api/me`, {
      host: 'atrium.example.com',
      'x-forwarded-for': '203.0.113.9',
    });
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body) as { url: string; headers: Record<string, string> };
    expect(seen.url).toBe('/api/me');
    expect(seen.headers).toMatchObject({
      host: 'atrium.example.com',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'atrium.example.com',
    });
  });
});

describe("docs/DEPLOY.md's rolling-restart loop", () => {
  it("waits longer than the shipped upstreams' fail_timeout before the next instance", () => {
    const deploy = readFileSync(path.join(repoRoot, 'docs/DEPLOY.md'), 'utf8');
    const loop = /for port in 3000 3001; do\n([\s\S]*?)\ndone/.exec(deploy)?.[1] ?? '';
    expect(loop).toContain('systemctl restart atrium@$port');
    const afterReady = loop.slice(loop.indexOf('/readyz'));
    const wait = Number(/\n\s*sleep (\d+)/.exec(afterReady)?.[1] ?? 0);
    // Every upstream of the shipped site: nginx sends a refused instance nothing for fail_timeout.
    const timeouts = [...readFileSync(SITE, 'utf8').matchAll(/server 127\.0\.0\.1:\d+ .*fail_timeout=(\d+)s/g)].map(
      ([, seconds]) => Number(seconds),
    );
    expect(timeouts).toHaveLength(2);
    for (const timeout of timeouts) expect(wait).toBeGreaterThan(timeout);
  });
});

describe('deploy/systemd/atrium@.service', () => {
  it('passes systemd-analyze verify without a warning', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atrium-unit-'));
    try {
      // verify needs an instance name for a template unit.
      const unit = path.join(dir, 'atrium@3000.service');
      // The unit runs /opt/node/bin/node (docs/DEPLOY.md); verify checks the binary exists: point it at this node.
      writeFileSync(unit, readFileSync(SYSTEMD_UNIT, 'utf8').replace('/opt/node/bin/node', process.execPath));
      const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
      expect(verify.error).toBeUndefined();
      expect(verify.stderr.trim()).toBe('');
      expect(verify.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is sandboxed: systemd-analyze security rates it OK, at most 3.0', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atrium-unit-'));
    try {
      const unit = path.join(dir, 'atrium@3000.service');
      writeFileSync(unit, readFileSync(SYSTEMD_UNIT));
      const security = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', unit], {
        encoding: 'utf8',
      });
      const overall = /Overall exposure level for atrium@3000\.service: (\d+\.\d) (\w+)/.exec(security.stdout);
      expect(overall, security.stdout + security.stderr).not.toBeNull();
      expect(Number(overall?.[1])).toBeLessThanOrEqual(3.0);
      expect(overall?.[2]).toBe('OK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs Node 22 or 24 from /opt/node, not the distribution's", () => {
    expect(readFileSync(SYSTEMD_UNIT, 'utf8')).toMatch(
      /^ExecStart=\/opt\/node\/bin\/node \/opt\/atrium\/apps\/server\/dist\/main\.js$/m,
    );
  });

  it('runs production on loopback with a restart policy, a graceful stop and secrets from a file', () => {
    const unit = readFileSync(SYSTEMD_UNIT, 'utf8');
    expect(unitEnvironment(3001)).toMatchObject({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '3001',
      UV_THREADPOOL_SIZE: '16',
    });
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/atrium\/atrium\.env$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    // Longer than SHUTDOWN_TIMEOUT_MS (10 s), so Atrium's own graceful stop finishes first.
    expect(Number(/^TimeoutStopSec=(\d+)s$/m.exec(unit)?.[1])).toBeGreaterThan(10);
    expect(unit).toMatch(/^User=atrium$/m);
  });
});

describe('deploy/systemd/atrium.env.example', () => {
  /** The example file's KEY=value lines. */
  function exampleEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      expect(match, `not a KEY=value line: ${line}`).not.toBeNull();
      env[match?.[1] ?? ''] = match?.[2] ?? '';
    }
    return env;
  }

  it('names only variables the server reads', () => {
    expect(Object.keys(exampleEnv()).filter((name) => !(name in EnvSchema.shape))).toEqual([]);
  });

  it('is refused unedited, one line per placeholder secret; filled in, the server accepts it in production', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-env-'));
    try {
      const env = { ...unitEnvironment(3000), ...exampleEnv(), DATA_DIR: dataDir };
      let problems: string[] = [];
      try {
        loadConfig(env);
      } catch (error) {
        problems = error instanceof ConfigError ? error.problems : [String(error)];
      }
      expect(problems.map((line) => line.split(':')[0])).toEqual([
        'VAPID_PUBLIC_KEY',
        'VAPID_PRIVATE_KEY',
        'SESSION_SECRET',
        'ADMIN_PASSWORD',
      ]);
      expect(problems.every((line) => line.includes('placeholder'))).toBe(true);
      const config = loadConfig({
        ...env,
        SESSION_SECRET: randomBytes(48).toString('base64'),
        ADMIN_PASSWORD: `operator ${randomUUID()}`,
        VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey,
        VAPID_PRIVATE_KEY: VAPID_KEYS.privateKey,
      });
      expect(config).toMatchObject({
        isProduction: true,
        publicUrl: 'https://atrium.example.com',
        database: { kind: 'postgres' },
        blobStore: { kind: 's3' },
        bus: { redisUrl: 'redis://redis.internal:6379' },
        oidc: { mode: 'external' },
        session: { cookieSecure: true },
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an unsupported Node', () => {
  // This machine kind's own node is 20 (Debian 13 ships 20, Debian 12 18): the built server and ops CLI must say
  // so and exit, not crash in better-sqlite3 with nothing printed.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((file) => {
    const version = spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    return version !== undefined && version !== '' && !isSupportedNode(version);
  });

  it.skipIf(!systemNode)('makes the server and the ops CLI exit with a message naming the supported lines', () => {
    for (const entry of ['apps/server/dist/main.js', 'apps/server/dist/ops.js']) {
      const run = spawnSync(String(systemNode), [path.join(repoRoot, entry), 'backup', '/nonexistent'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: '/nonexistent' },
        timeout: 30_000,
      });
      expect(run.status, entry).toBe(1);
      expect(run.signal).toBeNull();
      expect(run.stderr).toContain('Atrium cannot run on Node');
      expect(run.stderr).toContain('it needs Node 22 (22.22 or later) or 24');
    }
  });
});

describe('--version', () => {
  it('the built server and ops CLI print the version and commit, and start nothing', () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'apps/server/package.json'), 'utf8')) as {
      version: string;
    };
    for (const entry of ['apps/server/dist/main.js', 'apps/server/dist/ops.js']) {
      const run = spawnSync(process.execPath, [path.join(repoRoot, entry), '--version'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, NODE_ENV: 'production' },
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Atrium ${version.replaceAll('.', '\\.')}( \\([0-9a-f]{12}\\))?\\n$`));
    }
  });
});
