import { createECDH, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContactMessageList, FileRecord, FileVersionList, Notification } from '@atrium/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, dialects, readJson, startTestServer, type TestServer } from '../../test/helpers';
import { S3_TEST_CREDENTIALS, startS3 } from '../../test/s3';
import { loadConfig } from '../config';
import { backup } from './backup';
import { ops as runOps } from '../../test/ops-cli';

/** Runs `npm run backup|restore -- DIR` as the operator would. */
const ops = (command: string, dir: string, env: Record<string, string | undefined>, extra: string[] = []) =>
  runOps([command, dir, ...extra], env);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const tempDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const listing = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

function form(bytes: Uint8Array, name: string): FormData {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
  return body;
}

/** Row counts of every table: the restored database must hold exactly the same data. */
/** Rows per table, but the scheduler's leases: which instance runs a job is not data, and each server takes its own. */
async function tableCounts(server: TestServer): Promise<Record<string, number>> {
  const db = server.app.database.db;
  const tables = (await db.introspection.getTables()).filter((table) => table.name !== 'job_leases');
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}`.execute(db);
    counts[table.name] = Number(rows[0]?.n);
  }
  return counts;
}

describe.each(dialects())('backup and restore (%s)', (dialect) => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let alice: string;
  let admin: string;
  let bob: string;
  /**
   * The workspaces model (docs/PRODUCT.md#workspaces-and-folders): a workspace, a folder in it shared with Bob, a file
   * there and a public link to it.
   */
  const team = { workspaceId: '', folderId: '', fileId: '', token: '', hash: '' };
  const extras = { binnedId: '', versionedId: '', v1Hash: '' };
  const cleanups: (() => Promise<void> | void)[] = [];
  const originals = new Map<string, string>();

  /** An empty restore target: a data folder and, on PostgreSQL, an empty database. */
  async function emptyTarget(): Promise<{ dataDir: string; env: Record<string, string | undefined> }> {
    const dataDir = path.join(tempDir('atrium-restore-'), 'data');
    cleanups.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    if (dialect === 'sqlite') return { dataDir, env: { DATA_DIR: dataDir } };
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    return { dataDir, env: { DATA_DIR: dataDir, DATABASE_URL: database.url } };
  }

  const sourceEnv = () => ({ DATA_DIR: source.dataDir, DATABASE_URL: source.databaseUrl });
  const upload = async (server: TestServer, bytes: Uint8Array, name: string) => {
    const response = await server.fetch('/api/files/upload?userId=alice', {
      method: 'POST',
      headers: { cookie: alice, accept: 'application/json' },
      body: form(bytes, name),
    });
    expect(response.status).toBe(200);
    return readJson<FileRecord>(response);
  };
  const files = async (server: TestServer) =>
    readJson<FileRecord[]>(await server.fetch('/api/files/user/alice', { headers: { cookie: alice } }));
  const download = async (server: TestServer, id: string) => {
    const response = await server.fetch(`/api/files/download/${id}`, { headers: { cookie: alice } });
    expect(response.status).toBe(200);
    return sha256(new Uint8Array(await response.arrayBuffer()));
  };

  beforeAll(async () => {
    // The subscription only has to exist: a loopback endpoint, allowed by the test escape hatch.
    source = await startTestServer({ dialect, env: { PUSH_ALLOW_LOOPBACK: 'true' } });
    admin = await source.signInAs({ owner_key: 'admin', role: 'admin' });
    alice = await source.signInAs({ owner_key: 'alice', name: 'Alice' });
    for (const [name, size] of [
      ['notes.txt', 300],
      ['photo.bin', 70_000],
      ['large.bin', 6 * 1024 * 1024],
    ] as const) {
      const bytes = randomBytes(size);
      const record = await upload(source, bytes, name);
      originals.set(record.id, sha256(bytes));
    }
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscribed = await source.fetch('/public/api/notifications/subscribe', {
      method: 'POST',
      headers: { cookie: alice, 'content-type': 'application/json' },
      body: JSON.stringify({
        userId: 'alice',
        subscription: {
          endpoint: 'https://127.0.0.1:9/alice',
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
      }),
    });
    expect(await subscribed.json()).toMatchObject({ subscribed: true, push: true });
    const published = await source.fetch('/public/api/notifications', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Maintenance tonight', timestamp: new Date().toISOString(), type: 'admin' }),
    });
    expect(published.status).toBeLessThan(300);
    bob = await source.signInAs({ owner_key: 'bob', name: 'Bob' });
    const json = { cookie: alice, 'content-type': 'application/json' };
    const workspace = await readJson<{ id: string; rootFolderId: string }>(
      await source.fetch('/api/workspaces', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Team' }) }),
    );
    team.workspaceId = workspace.id;
    const folder = await readJson<{ id: string }>(
      await source.fetch('/api/folders', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Plans', workspaceId: workspace.id }),
      }),
    );
    team.folderId = folder.id;
    const planBytes = randomBytes(4096);
    team.hash = sha256(planBytes);
    const plan = await source.fetch(`/api/files/upload?workspaceId=${workspace.id}&folderId=${folder.id}`, {
      method: 'POST',
      headers: { cookie: alice, accept: 'application/json' },
      body: form(planBytes, 'plan.bin'),
    });
    team.fileId = (await readJson<FileRecord>(plan)).id;
    const shared = await source.fetch(`/api/folders/${folder.id}/shares/bob`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ role: 'viewer' }),
    });
    expect(shared.status).toBe(201);
    const link = await source.fetch('/api/links', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ fileId: team.fileId }),
    });
    team.token = (await readJson<{ token: string }>(link)).token;
    // A file in the trash and a file with an older version (docs/PRODUCT.md#trash-and-versions).
    const binned = await upload(source, randomBytes(500), 'binned.bin');
    expect(
      (await source.fetch(`/api/files/user/${binned.id}`, { method: 'DELETE', headers: { cookie: alice } })).status,
    ).toBe(200);
    extras.binnedId = binned.id;
    const v1 = randomBytes(800);
    extras.v1Hash = sha256(v1);
    const versioned = await upload(source, v1, 'versioned.bin');
    const v2 = randomBytes(900);
    const replaced = await source.fetch('/api/files/upload?onConflict=replace', {
      method: 'POST',
      headers: { cookie: alice, accept: 'application/json' },
      body: form(v2, 'versioned.bin'),
    });
    expect((await readJson<FileRecord>(replaced)).id).toBe(versioned.id);
    originals.set(versioned.id, sha256(v2));
    extras.versionedId = versioned.id;
    const contact = await source.fetch('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.test', message: 'Please call me back.' }),
    });
    expect(contact.status).toBe(201);
  });
  afterAll(async () => {
    await restored?.close();
    await source?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('restores a running instance into an empty folder and database: same users, sessions, files, notifications', async () => {
    const backupDir = path.join(tempDir('atrium-backup-'), 'backup');
    cleanups.push(() => rmSync(path.dirname(backupDir), { recursive: true, force: true }));
    const backedUp = await ops('backup', backupDir, sourceEnv());
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);

    const target = await emptyTarget();
    const done = await ops('restore', backupDir, target.env);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);

    restored = await startTestServer({ dialect, dataDir: target.dataDir, databaseUrl: target.env.DATABASE_URL });
    // Alice's session cookie from the original instance is still valid: sessions came along.
    expect(await files(restored)).toEqual(await files(source));
    for (const [id, hash] of originals) expect(await download(restored, id)).toBe(hash);
    const notifications = async (server: TestServer) =>
      readJson<Notification[]>(await server.fetch('/public/api/notifications', { headers: { cookie: alice } }));
    expect(await notifications(restored)).toEqual(await notifications(source));
    const contact = async (server: TestServer) =>
      readJson<ContactMessageList>(await server.fetch('/api/contact', { headers: { cookie: admin } }));
    expect(await contact(restored)).toEqual(await contact(source));
    const vapid = async (server: TestServer) =>
      (await server.fetch('/public/api/notifications/vapid-public-key')).text();
    expect(await vapid(restored)).toBe(await vapid(source));
    expect(await tableCounts(restored)).toEqual(await tableCounts(source));
    // Workspaces, folders, shares and links came along: Bob still sees the shared folder, the link still serves.
    const sharedWithBob = async (server: TestServer) =>
      (await server.fetch('/api/shared-with-me', { headers: { cookie: bob } })).json();
    expect(await sharedWithBob(restored)).toEqual(await sharedWithBob(source));
    const bobListing = await readJson<{ files: FileRecord[] }>(
      await restored.fetch(`/api/folders/${team.folderId}`, { headers: { cookie: bob } }),
    );
    expect(bobListing.files.map((f) => f.id)).toEqual([team.fileId]);
    const viaLink = await restored.fetch(`/api/public/links/${team.token}/download`);
    expect(viaLink.status).toBe(200);
    expect(sha256(new Uint8Array(await viaLink.arrayBuffer()))).toBe(team.hash);
    // The trash and the versions came along: same lists, the old content downloads, the trashed file restores.
    const trashOf = async (server: TestServer) =>
      (await server.fetch('/api/trash', { headers: { cookie: alice } })).json();
    expect(await trashOf(restored)).toEqual(await trashOf(source));
    const versionsOf = async (server: TestServer) =>
      readJson<FileVersionList>(
        await server.fetch(`/api/files/${extras.versionedId}/versions`, { headers: { cookie: alice } }),
      );
    const versions = await versionsOf(restored);
    expect(versions).toEqual(await versionsOf(source));
    const old = await restored.fetch(`/api/files/${extras.versionedId}/versions/${versions.versions[0]?.id}/content`, {
      headers: { cookie: alice },
    });
    expect(sha256(new Uint8Array(await old.arrayBuffer()))).toBe(extras.v1Hash);
    const back = await restored.fetch(`/api/trash/${extras.binnedId}/restore`, {
      method: 'POST',
      headers: { cookie: alice },
    });
    expect(back.status).toBe(200);
    await restored.fetch(`/api/files/user/${extras.binnedId}`, { method: 'DELETE', headers: { cookie: alice } });
    // The generated admin password hash and the other secrets came along too.
    expect(listing(path.join(target.dataDir, 'secrets'))).toEqual(listing(path.join(source.dataDir, 'secrets')));

    // Restoring again into the now used folder and database is refused and changes nothing.
    const before = listing(target.dataDir);
    const refused = await ops('restore', backupDir, target.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refusing to restore');
    expect(refused.stderr).toContain('is not empty');
    expect(listing(target.dataDir)).toEqual(before);
    expect(await files(restored)).toEqual(await files(source));
    // A backup never overwrites an earlier one either.
    const again = await ops('backup', backupDir, sourceEnv());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');
  });

  it.runIf(dialect === 'postgres')(
    'refuses a database that already has tables, even with an empty folder',
    async () => {
      const backupDir = path.join(tempDir('atrium-backup-'), 'backup');
      cleanups.push(() => rmSync(path.dirname(backupDir), { recursive: true, force: true }));
      expect((await ops('backup', backupDir, sourceEnv())).code).toBe(0);
      const dataDir = path.join(tempDir('atrium-restore-'), 'data');
      cleanups.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
      const refused = await ops('restore', backupDir, { DATA_DIR: dataDir, DATABASE_URL: source.databaseUrl });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the database already has tables');
      expect(readdirSync(path.dirname(dataDir))).toEqual([]);
    },
  );

  it('leaves out a file deleted between the database copy and the blob copy', async () => {
    const doomed = await upload(source, randomBytes(30_000), 'doomed.bin');
    const backupDir = path.join(tempDir('atrium-backup-'), 'backup');
    cleanups.push(() => rmSync(path.dirname(backupDir), { recursive: true, force: true }));
    const config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(32), ...sourceEnv() });
    await backup(config, backupDir, {
      afterDatabaseCopy: async () => {
        const removed = await source.fetch(`/api/files/user/${doomed.id}`, {
          method: 'DELETE',
          headers: { cookie: alice },
        });
        expect(removed.status).toBe(200);
        // Purged from the trash too: its bytes go.
        const purged = await source.fetch(`/api/trash/${doomed.id}`, { method: 'DELETE', headers: { cookie: alice } });
        expect(purged.status).toBe(200);
      },
    });
    const target = await emptyTarget();
    expect((await ops('restore', backupDir, target.env)).code).toBe(0);
    const copy = await startTestServer({ dialect, dataDir: target.dataDir, databaseUrl: target.env.DATABASE_URL });
    cleanups.push(() => copy.close());
    const listed = await files(copy);
    expect(listed.map((record) => record.id)).not.toContain(doomed.id);
    for (const record of listed) expect(await download(copy, record.id)).toBe(originals.get(record.id));
  });

  it('takes a consistent backup while uploads and deletions are in flight', async () => {
    const backupDir = path.join(tempDir('atrium-backup-'), 'backup');
    cleanups.push(() => rmSync(path.dirname(backupDir), { recursive: true, force: true }));
    let running = true;
    const pending = ops('backup', backupDir, sourceEnv()).finally(() => (running = false));
    // Until the backup ends, keep uploading files and deleting some of them, two clients at a time.
    const busy = async (client: number) => {
      for (let n = 0; running; n += 1) {
        const bytes = randomBytes(20_000 + n * 1000);
        const record = await upload(source, bytes, `busy-${client}-${n}.bin`);
        originals.set(record.id, sha256(bytes));
        if (n % 2 === 1) {
          await source.fetch(`/api/files/user/${record.id}`, { method: 'DELETE', headers: { cookie: alice } });
          originals.delete(record.id);
        }
      }
    };
    const [backedUp] = await Promise.all([pending, busy(1), busy(2)]);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);

    const target = await emptyTarget();
    expect((await ops('restore', backupDir, target.env)).code).toBe(0);
    const copy = await startTestServer({ dialect, dataDir: target.dataDir, databaseUrl: target.env.DATABASE_URL });
    cleanups.push(() => copy.close());
    // Every file the restored instance lists can be downloaded, byte for byte.
    const listed = await files(copy);
    expect(listed.length).toBeGreaterThan(3);
    for (const record of listed) {
      const response = await copy.fetch(`/api/files/download/${record.id}`, { headers: { cookie: alice } });
      expect(response.status, record.fileName).toBe(200);
      const hash = sha256(new Uint8Array(await response.arrayBuffer()));
      if (originals.has(record.id)) expect(hash).toBe(originals.get(record.id));
    }
  });
});

describe('backup and restore on the S3 blob store', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let source: TestServer;
  const dirs: string[] = [];
  const s3Env = (): Record<string, string> => ({
    BLOB_STORE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'atrium-backup',
    ...S3_TEST_CREDENTIALS,
  });
  const temp = (prefix: string) => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    s3 = await startS3();
    source = await startTestServer({ env: s3Env() });
  });
  afterAll(async () => {
    await source?.close();
    await s3?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the objects the bucket must keep, restores the database, and refuses when the bucket lost one', async () => {
    const cookie = await source.signInAs({ owner_key: 'carol' });
    const hashes = new Map<string, string>();
    for (const size of [1000, 200_000]) {
      const bytes = randomBytes(size);
      const response = await source.fetch('/api/files/upload?userId=carol', {
        method: 'POST',
        headers: { cookie, accept: 'application/json' },
        body: form(bytes, `s3-${size}.bin`),
      });
      hashes.set((await readJson<FileRecord>(response)).id, sha256(bytes));
    }
    const backupDir = path.join(temp('atrium-backup-'), 'backup');
    const backedUp = await ops('backup', backupDir, { DATA_DIR: source.dataDir, ...s3Env() });
    expect(backedUp.code, backedUp.stderr).toBe(0);
    const objects = JSON.parse(readFileSync(path.join(backupDir, 's3-objects.json'), 'utf8')) as {
      key: string;
      size: number;
      etag: string;
    }[];
    expect(objects.map((object) => object.size).sort((a, b) => a - b)).toEqual([1000, 200_000]);
    expect(objects.every((object) => object.etag.length > 0)).toBe(true);

    const dataDir = path.join(temp('atrium-restore-'), 'data');
    expect((await ops('restore', backupDir, { DATA_DIR: dataDir, ...s3Env() })).code).toBe(0);
    const copy = await startTestServer({ dataDir, env: s3Env() });
    try {
      for (const [id, hash] of hashes) {
        const response = await copy.fetch(`/api/files/download/${id}`, { headers: { cookie } });
        expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(hash);
      }
    } finally {
      await copy.close();
    }

    const lost = objects[0]?.key ?? '';
    await fetch(`${s3.endpoint}/atrium-backup/${lost}`, { method: 'DELETE' });
    const emptyDir = path.join(temp('atrium-restore-'), 'data');
    const refused = await ops('restore', backupDir, { DATA_DIR: emptyDir, ...s3Env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the bucket lacks 1 object(s) the backup needs (${lost})`);
    expect(existsSync(emptyDir)).toBe(false);
  });
  it('with --with-objects keeps the bytes too, and restores into a bucket that has none of them', async () => {
    const cookie = await source.signInAs({ owner_key: 'dave' });
    const bytes = randomBytes(50_000);
    const response = await source.fetch('/api/files/upload?userId=dave', {
      method: 'POST',
      headers: { cookie, accept: 'application/json' },
      body: form(bytes, 'kept-bytes.bin'),
    });
    const id = (await readJson<FileRecord>(response)).id;
    const backupDir = path.join(temp('atrium-backup-'), 'backup');
    const backedUp = await ops('backup', backupDir, { DATA_DIR: source.dataDir, ...s3Env() }, ['--with-objects']);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toMatch(/objects of bucket atrium-backup \(\d+ bytes\)/);

    // Another, empty bucket: without the saved bytes this restore would be refused.
    const emptyBucket = { ...s3Env(), S3_BUCKET: 'atrium-restored' };
    const dataDir = path.join(temp('atrium-restore-'), 'data');
    const restored = await ops('restore', backupDir, { DATA_DIR: dataDir, ...emptyBucket });
    expect(restored.code, restored.stderr).toBe(0);
    const copy = await startTestServer({ dataDir, env: emptyBucket });
    try {
      const download = await copy.fetch(`/api/files/download/${id}`, { headers: { cookie } });
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await copy.close();
    }
  });
});
