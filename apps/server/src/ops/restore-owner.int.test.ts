import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers';
import { ops } from '../../test/ops-cli';

// `npm run restore` run as root into the service's DATA_DIR (docs/DEPLOY.md, "Backups and restore"): the restored
// files belong to the service user, not root, so the service starts (it failed with EACCES before).
const SERVICE_UID = 4242;
const SERVICE_GID = 4343;

describe.skipIf(process.getuid?.() !== 0)('restore as root (sqlite)', () => {
  let server: TestServer;
  const folders: string[] = [];
  const temp = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  beforeAll(async () => {
    server = await startTestServer();
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const body = new FormData();
    body.append('file', new Blob(['restored by root']), 'note.txt');
    expect((await server.fetch('/api/files/upload', { method: 'POST', headers: { cookie: admin }, body })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await server?.close();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it("gives every restored file to DATA_DIR's owner", async () => {
    const backupDir = path.join(temp('atrium-backup-'), 'backup');
    const backedUp = await ops(['backup', backupDir], { DATA_DIR: server.dataDir });
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    // The operator's own secrets stay out of the backup, and it says so.
    expect(backedUp.stdout).toContain('Not in the backup: ADMIN_PASSWORD — set in the environment');

    // As systemd's StateDirectory= leaves it: empty, owned by the service user.
    const dataDir = path.join(temp('atrium-restore-'), 'data');
    mkdirSync(dataDir);
    chownSync(dataDir, SERVICE_UID, SERVICE_GID);
    const restored = await ops(['restore', backupDir], { DATA_DIR: dataDir });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);

    const entries = readdirSync(dataDir, { recursive: true }).map(String);
    expect(entries).toEqual(expect.arrayContaining(['atrium.db', 'secrets']));
    expect(entries.some((entry) => entry.startsWith('blobs'))).toBe(true);
    const owners = new Set(
      ['', ...entries].map((entry) => {
        const { uid, gid } = statSync(path.join(dataDir, entry));
        return `${uid}:${gid}`;
      }),
    );
    expect([...owners]).toEqual([`${SERVICE_UID}:${SERVICE_GID}`]);
  });
});
