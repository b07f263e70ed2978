import { execFileSync } from 'node:child_process';
import type { SystemStatus } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../../test/helpers';

const SESSION_SECRET = 'system-screen-session-secret-0123456789abcdef';

describe.each(dialects())('admin console: system status (%s)', (dialect) => {
  let server: TestServer;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { SESSION_SECRET } });
    admin = await server.signInAs({ owner_key: 'sys-admin', role: 'admin' });
    user = await server.signInAs({ owner_key: 'sys-user' });
  });
  afterAll(async () => server?.close());

  const status = async () => {
    const response = await server.fetch('/api/admin/system', { headers: { cookie: admin } });
    const raw = await response.text();
    expect(response.status).toBe(200);
    return { raw, body: JSON.parse(raw) as SystemStatus };
  };

  it('gives an admin version, uptime, checks with latency, database size, streams and push counts', async () => {
    const { body } = await status();
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    // Tests run from a checkout: the commit is its HEAD (build-info.test.ts covers a build and no git at all).
    expect(body.commit).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const names = body.checks.map((check) => check.name);
    expect(names).toEqual(expect.arrayContaining(['database', 'blobStore', 'bus']));
    const database = body.checks.find((check) => check.name === 'database');
    expect(database?.status).toBe('ok');
    expect(typeof database?.latencyMs).toBe('number');
    expect(body.database.kind).toBe(dialect);
    expect(body.database.sizeBytes).toBeGreaterThan(0);
    expect(body.storage.blobStore).toBe('fs');
    expect(body.streams.openOnThisInstance).toBe(0);
    expect(body.push.subscriptions).toBe(0);
    expect(body.ai.every((check) => check.name.startsWith('ai.'))).toBe(true);
    expect(body.ai.length).toBeGreaterThan(0);
  });

  it('shows the analysis queue and counts scheduled messages not sent yet', async () => {
    expect((await status()).body.jobs).toEqual({ queued: 0, running: 0, failed: 0 });
    const before = (await status()).body.scheduledNotifications.pending;
    const scheduled = await server.fetch('/api/admin/notifications/scheduled', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Later', sendAt: new Date(Date.now() + 3_600_000).toISOString() }),
    });
    expect(scheduled.status).toBe(201);
    expect((await status()).body.scheduledNotifications.pending).toBe(before + 1);
  });

  it('counts stored bytes: an upload makes storage grow by its size', async () => {
    const before = (await status()).body.storage;
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(4321, 7)]), 'grow.bin');
    const upload = await server.fetch('/api/files/upload?userId=sys-user', {
      method: 'POST',
      headers: { cookie: user, accept: 'application/json' },
      body: form,
    });
    expect(upload.status).toBe(200);
    const after = (await status()).body.storage;
    expect(after.blobBytes - before.blobBytes).toBe(4321);
    expect(after.files - before.files).toBe(1);
    // Replaced, the old content is a version; deleted, the file's bytes are in the trash.
    const replace = new FormData();
    replace.append('file', new Blob([Buffer.alloc(100, 8)]), 'grow.bin');
    const replaced = await server.fetch('/api/files/upload?userId=sys-user&onConflict=replace', {
      method: 'POST',
      headers: { cookie: user, accept: 'application/json' },
      body: replace,
    });
    const { id } = (await replaced.json()) as { id: string };
    expect((await status()).body.storage.versionBytes - before.versionBytes).toBe(4321);
    const deleted = await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: user } });
    expect(deleted.status).toBe(200);
    expect((await status()).body.storage.trashBytes - before.trashBytes).toBe(100);
  });

  it('counts the bytes of an unfinished resumable upload', async () => {
    const before = (await status()).body.storage.tusBytes ?? 0;
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: user,
        'upload-length': '1000',
        'upload-metadata': `filename ${Buffer.from('half.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const patched = await server.fetch(created.headers.get('location') ?? '', {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: user,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(300, 1),
    });
    expect(patched.status).toBe(204);
    expect(((await status()).body.storage.tusBytes ?? 0) - before).toBe(300);
  });

  it('masks every secret: set/unset only, the values never appear in the body', async () => {
    const { raw, body } = await status();
    expect(raw).not.toContain(SESSION_SECRET);
    expect(raw).not.toContain(TEST_ADMIN_PASSWORD);
    const byKey = Object.fromEntries(body.config.map((entry) => [entry.key, entry]));
    expect(byKey.SESSION_SECRET).toEqual({ key: 'SESSION_SECRET', value: 'set', secret: true });
    expect(byKey.ADMIN_PASSWORD).toEqual({ key: 'ADMIN_PASSWORD', value: 'set', secret: true });
    expect(byKey.S3_SECRET_ACCESS_KEY?.value).toBe('unset');
    for (const entry of body.config.filter((e) => e.secret)) expect(['set', 'unset']).toContain(entry.value);
    expect(byKey.DATABASE?.value).toBe(dialect);
  });

  it('refuses a user (403) and anonymous callers (401) in the JSON error shape', async () => {
    const forbidden = await server.fetch('/api/admin/system', { headers: { cookie: user } });
    expect(forbidden.status).toBe(403);
    expect(await readError(forbidden)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only admins can see the system status.',
    });
    const anonymous = await server.fetch('/api/admin/system');
    expect(anonymous.status).toBe(401);
    expect((await readError(anonymous)).code).toBeTruthy();
  });
});

describe.each(dialects())('admin console: system status with a job queue (%s)', (dialect) => {
  let server: TestServer;
  let failing = false;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      overrides: {
        queueStats: async () => {
          if (failing) throw new Error('queue unreachable');
          return { queued: 4, running: 2, failed: 1 };
        },
      },
    });
  });
  afterAll(async () => server?.close());

  it('shows the queue figures it is given, and null (not a 500) when they cannot be read', async () => {
    const admin = await server.signInAs({ owner_key: 'queue-admin', role: 'admin' });
    const read = async () => {
      const response = await server.fetch('/api/admin/system', { headers: { cookie: admin } });
      expect(response.status).toBe(200);
      return (await response.json()) as SystemStatus;
    };
    expect((await read()).jobs).toEqual({ queued: 4, running: 2, failed: 1 });
    failing = true;
    expect((await read()).jobs).toBeNull();
  });
});
