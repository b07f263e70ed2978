import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, freePort, readJson } from '../helpers';
import { COMPOSE_ENV_EXAMPLE, atriumRunArgs, readCompose, readEnvFile, repoRoot } from './compose';

/**
 * The container tier (docs/DEPLOY.md, "Container"; `.ci/run` runs it after `npm test`): deploy/container/build.sh
 * builds the image, podman runs it as deploy/compose.yaml declares the atrium service (its env file made from
 * compose.env.example, its environment, volume and limits), with this machine's PostgreSQL and Redis standing in
 * for the compose file's (reached under the names `postgres` and `redis`), and a client does what a person would.
 *
 * Podman here needs runc and cgroupfs (crun refuses the hybrid cgroups of this machine kind) and limits within the
 * sandbox's (20,000 open files where compose.yaml asks 65,536): ATRIUM_PODMAN_FLAGS replaces the global flags.
 * ATRIUM_TEST_IMAGE names the image it builds (localhost/atrium:test).
 */
const IMAGE = process.env.ATRIUM_TEST_IMAGE ?? 'localhost/atrium:test';
const PODMAN_FLAGS = (process.env.ATRIUM_PODMAN_FLAGS ?? '--runtime runc --cgroup-manager=cgroupfs').split(/\s+/);
const ULIMITS = { nofile: 20_000, nproc: 4096 };
/** The Node version scripts/runtime.mjs pins, which build.sh puts into the image. */
const RUNTIME_NODE_VERSION = /RUNTIME_NODE_VERSION = '([\d.]+)'/.exec(
  readFileSync(path.join(repoRoot, 'scripts/runtime.mjs'), 'utf8'),
)?.[1];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const podman = (args: string[], options: SpawnSyncOptions = {}) => {
  const result = spawnSync('podman', [...PODMAN_FLAGS, ...args], { encoding: 'utf8', ...options });
  return { status: result.status, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
};

const writeEnvFile = (file: string, env: Record<string, string>) =>
  writeFileSync(
    file,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
    { mode: 0o600 },
  );

describe('the container image, run as deploy/compose.yaml declares it', () => {
  const suffix = randomUUID().slice(0, 8);
  const name = `atrium-test-${suffix}`;
  const volume = `atrium-test-data-${suffix}`;
  const work = mkdtempSync(path.join(tmpdir(), 'atrium-container-'));
  const adminPassword = `container admin ${randomUUID()}`;
  const restoredVolume = `atrium-test-restored-${suffix}`;
  const databases: Awaited<ReturnType<typeof createPostgresDatabase>>[] = [];
  /** The `.env` values of the first container, and where its dependencies run. */
  let environment: Record<string, string> = {};
  let hosts: Record<string, string> = {};
  let url = '';
  let cookie = '';
  const uploaded = new Map<string, Buffer>();

  const call = (pathname: string, init: RequestInit = {}) =>
    fetch(`${url}${pathname}`, { ...init, headers: { cookie, origin: url, ...init.headers } });
  const logs = (container = name) => podman(['logs', '--tail', '60', container]).stdout;
  const running = (container = name) =>
    podman(['inspect', '--format', '{{.State.Running}}', container]).stdout.trim() === 'true';

  /** Waits for /readyz to answer 200 while the container runs; fails with its log if it stops. */
  const waitReady = async (origin = url, container = name) => {
    for (let attempt = 0; attempt < 600; attempt++) {
      const ready = await fetch(`${origin}/readyz`).catch(() => undefined);
      if (ready?.status === 200) return;
      if (!running(container)) throw new Error(`the container stopped:\n${logs(container)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`not ready:\n${logs(container)}`);
  };

  beforeAll(async () => {
    const tools = spawnSync('podman', ['--version'], { encoding: 'utf8' });
    if (tools.status !== 0)
      throw new Error('podman is missing: apt-get install -y --no-install-recommends podman runc uidmap mmdebstrap');
    const testDatabase = process.env.TEST_DATABASE_URL;
    const testRedis = process.env.TEST_REDIS_URL;
    if (!testDatabase || !testRedis) throw new Error('set TEST_DATABASE_URL and TEST_REDIS_URL (.ci/run does)');

    // The image, as an operator builds it (cached: only what changed is redone).
    const build = spawnSync(path.join(repoRoot, 'deploy/container/build.sh'), [IMAGE], { stdio: 'inherit' });
    expect(build.status, 'deploy/container/build.sh').toBe(0);

    // compose.yaml's postgres and redis services: this machine's servers, on the ports the file names.
    const database = await createPostgresDatabase();
    databases.push(database);
    const pgUrl = new URL(database.url);
    const redisUrl = new URL(testRedis);
    expect(pgUrl.port || '5432', 'compose.yaml reaches PostgreSQL on 5432').toBe('5432');
    expect(redisUrl.port || '6379', 'compose.yaml reaches Redis on 6379').toBe('6379');

    // VAPID keys made the way compose.env.example says, with the image.
    const vapid = podman([
      ...['run', '--rm', '--no-healthcheck'],
      ...Object.entries(ULIMITS).flatMap(([limit, value]) => ['--ulimit', `${limit}=${value}:${value}`]),
      IMAGE,
      ...['node', 'node_modules/web-push/src/cli.js', 'generate-vapid-keys'],
    ]);
    expect(vapid.status, vapid.stderr).toBe(0);
    const key = (label: string) => new RegExp(`${label} Key:\\s+(\\S+)`).exec(vapid.stdout)?.[1] ?? '';

    // .env: the example with its placeholders filled in, and this run's port, database and Redis channel.
    const port = await freePort();
    url = `http://localhost:${port}`;
    const env = (environment = {
      ...readEnvFile(readFileSync(COMPOSE_ENV_EXAMPLE, 'utf8')),
      PUBLIC_URL: url,
      POSTGRES_USER: decodeURIComponent(pgUrl.username),
      POSTGRES_PASSWORD: decodeURIComponent(pgUrl.password) || randomBytes(16).toString('hex'),
      POSTGRES_DB: pgUrl.pathname.slice(1),
      SESSION_SECRET: randomBytes(48).toString('base64'),
      ADMIN_PASSWORD: adminPassword,
      VAPID_PUBLIC_KEY: key('Public'),
      VAPID_PRIVATE_KEY: key('Private'),
      PORT: String(port),
      REDIS_CHANNEL_PREFIX: `${name}:`,
    });
    hosts = { postgres: pgUrl.hostname, redis: redisUrl.hostname };
    const envFile = path.join(work, '.env');
    writeEnvFile(envFile, env);

    const args = atriumRunArgs(readCompose(), {
      env: { ...env, ATRIUM_IMAGE: IMAGE },
      envFile,
      hosts,
      volumeNames: { 'atrium-data': volume },
      ulimits: ULIMITS,
      name,
    });
    const started = podman(args);
    expect(started.status, started.stderr).toBe(0);
    await waitReady();
  }, 900_000);

  afterAll(async () => {
    podman(['rm', '--force', '--time', '5', name]);
    podman(['volume', 'rm', '--force', volume, restoredVolume]);
    for (const database of databases) await database.drop();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('runs Node as the unprivileged user atrium under tini, on the pinned Node', () => {
    expect(podman(['exec', name, 'id', '-u']).stdout.trim()).toBe('10001');
    const pid1 = podman(['exec', name, 'cat', '/proc/1/cmdline']).stdout.split('\0');
    expect(pid1.slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'node']);
    expect(podman(['exec', name, 'node', '--version']).stdout.trim()).toBe(`v${RUNTIME_NODE_VERSION}`);
    // The app's files are root's: the service cannot change its own code.
    const write = podman(['exec', name, 'touch', '/app/apps/server/dist/main.js']);
    expect(write.status).not.toBe(0);
    expect(write.stderr).toMatch(/Permission denied/);
  });

  it('is ready on /readyz with every dependency, and the image health check says healthy', async () => {
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const { checks } = await readJson<{ checks: Record<string, { status: string }> }>(ready);
    expect(Object.keys(checks)).toEqual(
      expect.arrayContaining(['database', 'blobStore', 'bus', 'ai.speechToText', 'ai.textToSpeech']),
    );
    expect(Object.entries(checks).filter(([, check]) => check.status !== 'ok')).toEqual([]);
    const health = podman(['healthcheck', 'run', name]);
    expect(health.status, health.stdout + health.stderr).toBe(0);
    expect(podman(['inspect', '--format', '{{.State.Health.Status}}', name]).stdout.trim()).toBe('healthy');
  });

  it('signs the admin in, takes an upload and gives back the same bytes', async () => {
    const login = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: adminPassword }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(await (await call('/api/me')).json()).toMatchObject({ ownerKey: 'admin', isAdmin: true });

    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'container.bin');
    const upload = await call('/api/files/upload', {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form,
    });
    expect(upload.status).toBe(200);
    const record = await readJson<FileRecord>(upload);
    expect(record).toMatchObject({ fileName: 'container.bin', size: bytes.length });
    uploaded.set(record.id, bytes);
    const download = await call(`/api/files/download/${record.id}`);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it("speaks with the image's Debian engines (flite, lame): text-to-speech answers MP3", async () => {
    const speech = await call('/api/ai/text-to-speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Good morning, this is Atrium in a container.' }),
    });
    expect(speech.status).toBe(200);
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = Buffer.from(await speech.arrayBuffer());
    // An ID3 tag or an MPEG audio frame's sync bits.
    expect(
      mp3.subarray(0, 3).toString('latin1') === 'ID3' || (mp3[0] === 0xff && ((mp3[1] ?? 0) & 0xe0) === 0xe0),
    ).toBe(true);
    expect(mp3.length).toBeGreaterThan(4000);
  });

  it("backs up from inside the container with the image's pg_dump", () => {
    const backup = podman(['exec', name, 'node', 'apps/server/dist/ops.js', 'backup', '/data/backups/ci']);
    expect(backup.status, backup.stderr).toBe(0);
    const manifest = podman(['exec', name, 'cat', '/data/backups/ci/atrium-backup.json']);
    expect(manifest.status, manifest.stderr).toBe(0);
    expect(podman(['exec', name, 'ls', '/data/backups/ci']).stdout.split('\n')).toContain('database.pgdump');
  });

  it('restores that backup, copied off the container, into an empty volume and database that then serve the files', async () => {
    // Copied off as DEPLOY.md says (`podman cp`), owned by the image's user as on the machine it came from.
    const copy = path.join(work, 'backup');
    const out = podman(['cp', `${name}:/data/backups/ci`, copy]);
    expect(out.status, out.stderr).toBe(0);
    spawnSync('chown', ['-R', '10001:10001', copy]);
    const restored = await createPostgresDatabase();
    databases.push(restored);
    const port = await freePort();
    const restoredUrl = `http://localhost:${port}`;
    const restoredName = `${name}-restored`;
    const env = {
      ...environment,
      POSTGRES_DB: new URL(restored.url).pathname.slice(1),
      PUBLIC_URL: restoredUrl,
      PORT: String(port),
      REDIS_CHANNEL_PREFIX: `${restoredName}:`,
    };
    const envFile = path.join(work, 'restored.env');
    writeEnvFile(envFile, env);
    const runArgs = (runName: string) =>
      atriumRunArgs(readCompose(), {
        env: { ...env, ATRIUM_IMAGE: IMAGE },
        envFile,
        hosts,
        volumeNames: { 'atrium-data': restoredVolume },
        ulimits: ULIMITS,
        name: runName,
      });

    // `podman-compose run --rm atrium node apps/server/dist/ops.js restore DIR` with the backup folder mounted.
    const oneOff = runArgs(`${restoredName}-ops`).map((arg) => (arg === '--detach' ? '--rm' : arg));
    const restore = podman([
      ...oneOff.slice(0, -1),
      ...['--no-healthcheck', '--volume', `${copy}:/backup:ro`, IMAGE],
      ...['node', 'apps/server/dist/ops.js', 'restore', '/backup'],
    ]);
    expect(restore.status, restore.stdout + restore.stderr).toBe(0);
    // Once restored, a second restore into the same volume and database is refused and changes nothing.
    const again = podman([
      ...oneOff.slice(0, -1),
      ...['--no-healthcheck', '--volume', `${copy}:/backup:ro`, IMAGE],
      ...['node', 'apps/server/dist/ops.js', 'restore', '/backup'],
    ]);
    expect(again.status).toBe(1);

    const started = podman(runArgs(restoredName));
    expect(started.status, started.stderr).toBe(0);
    try {
      await waitReady(restoredUrl, restoredName);
      const login = await fetch(`${restoredUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: restoredUrl },
        body: JSON.stringify({ username: 'admin', password: adminPassword }),
      });
      expect(login.status).toBe(200);
      const restoredCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(uploaded.size).toBe(1);
      for (const [id, bytes] of uploaded) {
        const download = await fetch(`${restoredUrl}/api/files/download/${id}`, {
          headers: { cookie: restoredCookie, origin: restoredUrl },
        });
        expect(download.status).toBe(200);
        expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
      }
      // The data folder stays the service user's: the server wrote into it after the restore.
      expect(podman(['exec', restoredName, 'stat', '-c', '%u', '/data']).stdout.trim()).toBe('10001');
    } finally {
      podman(['rm', '--force', '--time', '5', restoredName]);
    }
  });

  it('stops cleanly on SIGTERM and keeps the files in its volume across a new start', async () => {
    const stop = podman(['stop', '--time', '30', name]);
    expect(stop.status, stop.stderr).toBe(0);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim()).toBe('0');
    const start = podman(['start', name]);
    expect(start.status, start.stderr).toBe(0);
    await waitReady();
    for (const [id, bytes] of uploaded) {
      const download = await call(`/api/files/download/${id}`);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
    }
    expect(uploaded.size).toBe(1);
  });
});
