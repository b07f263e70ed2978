import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webPush from 'web-push';
import { createPostgresDatabase, freePort } from '../helpers';
import { S3_TEST_CREDENTIALS, startS3 } from '../s3';

/**
 * The production topology on loopback: nginx (with deploy/nginx/atrium-proxy.conf)
 * in front of two Atrium processes started from the built bundle with
 * NODE_ENV=production, sharing a fresh PostgreSQL database, Redis and an S3 bucket.
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SERVER_BUNDLE = path.join(repoRoot, 'apps/server/dist/main.js');
export const PROXY_SNIPPET = path.join(repoRoot, 'deploy/nginx/atrium-proxy.conf');
export const SYSTEMD_UNIT = path.join(repoRoot, 'deploy/systemd/atrium@.service');
export const NGINX_SITE = path.join(repoRoot, 'deploy/nginx/atrium.conf');

/** The parameters of the shipped site's upstream servers (`max_fails=1 fail_timeout=5s`), used here as they are. */
export const UPSTREAM_PARAMS = /server 127\.0\.0\.1:\d+ (.*);/.exec(readFileSync(NGINX_SITE, 'utf8'))?.[1] ?? '';
/** nginx's `fail_timeout` in ms: after a refused connection it sends an instance nothing for that long. */
export const FAIL_TIMEOUT_MS = 1000 * Number(/fail_timeout=(\d+)s/.exec(UPSTREAM_PARAMS)?.[1] ?? 10);

/** The `Environment=` settings of the systemd unit for the instance on `port` (`%i`). */
export function unitEnvironment(port: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, key = '', value = ''] of readFileSync(SYSTEMD_UNIT, 'utf8').matchAll(/^Environment=(\w+)=(.*)$/gm)) {
    env[key] = value.replaceAll('%i', String(port));
  }
  return env;
}
export const ADMIN_PASSWORD = `scale-out ${randomUUID()}`;

/** The header the test's server block adds so a test can see which instance answered. */
export const UPSTREAM_HEADER = 'x-test-upstream';

export const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once something accepts TCP connections on the port (rejects after timeoutMs). */
async function waitForPort(port: number, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the process for port ${port} exited`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export class Instance {
  child: ChildProcess | undefined;
  /** The tail of the process's output, for failure messages. */
  output = '';
  readonly url: string;
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the process and waits until /readyz answers 200. */
  async start(timeoutMs = 90_000): Promise<void> {
    const child = spawn(process.execPath, [SERVER_BUNDLE], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await this.waitReady(timeoutMs);
  }

  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.child || exited(this.child)) throw new Error(`${this.name} exited:\n${this.output}`);
      const ready = await fetch(`${this.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      await sleep(200);
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** Sends the signal and waits for the process to end; returns its exit code (null after a signal). */
  async stop(signal: NodeJS.Signals, timeoutMs = 30_000): Promise<number | null> {
    const child = this.child;
    if (!child || exited(child)) return child?.exitCode ?? null;
    const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const timer = sleep(timeoutMs).then(() => 'timeout' as const);
    const result = await Promise.race([done, timer]);
    if (result === 'timeout') {
      child.kill('SIGKILL');
      throw new Error(`${this.name} did not stop ${timeoutMs} ms after ${signal}:\n${this.output}`);
    }
    return result;
  }
}

export interface Topology {
  /** nginx, e.g. http://127.0.0.1:41234 — PUBLIC_URL of both instances. */
  url: string;
  instances: [Instance, Instance];
  /** Which instance a response came from (by the test's upstream header). */
  instanceOf(response: Response): Instance | undefined;
  databaseUrl: string;
  /** What nginx logged (warnings and errors, the last 20,000 characters). */
  nginxLog(): string;
  close(): Promise<void>;
}

/**
 * Writes an nginx main configuration (unprivileged: daemon off, pid and temp files in
 * `dir`, errors on stderr) around `http`, the contents of its http block, and starts
 * nginx; resolves once it listens on `port`.
 */
export async function startNginx(dir: string, port: number, http: string[]) {
  mkdirSync(dir, { recursive: true });
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub));
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      // As root nginx would hand its workers to "nobody", who cannot write the temp folders here.
      process.getuid?.() === 0 ? `user ${userInfo().username};` : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      'error_log stderr warn;',
      'worker_rlimit_nofile 8192;',
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((sub) => `  ${sub}_temp_path ${dir}/${sub};`),
      ...http,
      '}',
      '',
    ].join('\n'),
  );
  const binary = nginxBinary;
  if (!binary) throw new Error('nginx is not installed (apt-get install nginx)');
  const test = spawnSync(binary, ['-t', '-p', dir, '-e', 'stderr', '-c', conf], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const child = spawn(binary, ['-p', dir, '-e', 'stderr', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  await waitForPort(port, 10_000, () => !exited(child)).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${output}`);
  });
  return {
    /** What `nginx -t` reported beyond "syntax is ok": warnings and errors. */
    warnings: test.stderr.split('\n').filter((line) => /\[(warn|error|crit|alert|emerg)\]/.test(line)),
    output: () => output,
    async stop() {
      if (exited(child)) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await Promise.race([done, sleep(10_000)]);
      if (!exited(child)) child.kill('SIGKILL');
    },
  };
}

/** Starts S3, a fresh database, two production instances and nginx. */
export async function startTopology(extraEnv: Record<string, string> = {}): Promise<Topology> {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) throw new Error('TEST_REDIS_URL is not set');
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-scale-out-'));
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const s3 = await startS3();
    cleanups.push(() => s3.close());
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
    const url = `http://127.0.0.1:${nginxPort}`;
    const vapid = webPush.generateVAPIDKeys();
    // The same secrets for every instance, as a deployment's EnvironmentFile would give them.
    const shared: Record<string, string> = {
      PUBLIC_URL: url,
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_PASSWORD,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.test',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_CHANNEL_PREFIX: `atrium-scale-${randomUUID()}:`,
      BLOB_STORE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'atrium-scale-out',
      ...S3_TEST_CREDENTIALS,
      // The AI engines are not what this test is about: do not load models in the background.
      AI_WARM_UP: 'false',
      ...extraEnv,
    };
    const instances = [portA, portB].map((port, index) => {
      const dataDir = path.join(dir, `instance-${index + 1}`);
      mkdirSync(dataDir);
      // NODE_ENV, HOST and PORT as the systemd unit sets them; DATA_DIR in the temp folder.
      return new Instance(`instance ${index + 1}`, port, { ...unitEnvironment(port), ...shared, DATA_DIR: dataDir });
    }) as [Instance, Instance];
    cleanups.push(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL').catch(() => undefined)));
    });
    // Both start at once: one runs the migrations while the other waits on the migrator's lock.
    await Promise.all(instances.map((instance) => instance.start()));
    const nginx = await startNginx(path.join(dir, 'nginx'), nginxPort, [
      '  upstream atrium {',
      ...[portA, portB].map((port) => `    server 127.0.0.1:${port} ${UPSTREAM_PARAMS};`),
      '  }',
      '  server {',
      `    listen 127.0.0.1:${nginxPort};`,
      '    server_name localhost;',
      `    add_header ${UPSTREAM_HEADER} $upstream_addr always;`,
      `    include ${PROXY_SNIPPET};`,
      '  }',
    ]);
    cleanups.push(() => nginx.stop());
    return {
      url,
      instances,
      instanceOf: (response) => {
        const upstream = response.headers.get(UPSTREAM_HEADER) ?? '';
        // $upstream_addr lists every instance tried ("a, b"): the last one answered.
        const last = upstream.split(',').pop()?.trim() ?? '';
        return instances.find((instance) => last === `127.0.0.1:${instance.port}`);
      },
      databaseUrl: database.url,
      nginxLog: nginx.output,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
