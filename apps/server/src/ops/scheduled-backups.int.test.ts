import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestServer, type TestServer } from '../../test/helpers';

// A single-machine install backs itself up (docs/DEPLOY.md, "Backups and restore"): BACKUP_DIR, every
// BACKUP_INTERVAL_HOURS, the newest BACKUP_KEEP kept, nothing else in the folder touched.
describe.each(dialects())('scheduled backups (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date('2026-11-28T04:00:00.000Z');
  const backupDir = mkdtempSync(path.join(tmpdir(), 'atrium-scheduled-'));
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { BACKUP_DIR: backupDir, BACKUP_KEEP: '2', BACKUP_INTERVAL_HOURS: '6' },
      overrides: { clock: { now: () => now } },
    });
    const cookie = await server.signInAs({ owner_key: 'backed-up' });
    const form = new FormData();
    form.append('file', new Blob(['kept safe']), 'safe.txt');
    const upload = await server.fetch('/api/files/upload?userId=backed-up', {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    expect(upload.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(backupDir, { recursive: true, force: true });
  });

  it('writes complete backups, keeps the newest two, and leaves other things alone', async () => {
    mkdirSync(path.join(backupDir, 'keep-me'));
    writeFileSync(path.join(backupDir, 'notes.txt'), 'the operator’s own file');
    for (const at of ['2026-11-28T04:00:00.000Z', '2026-11-28T10:00:00.000Z', '2026-11-28T16:00:00.000Z']) {
      now = new Date(at);
      await server.app.scheduler.runNow('backups.scheduled');
    }
    expect(readdirSync(backupDir).sort()).toEqual([
      'atrium-2026-11-28T10-00-00Z',
      'atrium-2026-11-28T16-00-00Z',
      'keep-me',
      'notes.txt',
    ]);
    const newest = path.join(backupDir, 'atrium-2026-11-28T16-00-00Z');
    const manifest = JSON.parse(readFileSync(path.join(newest, 'atrium-backup.json'), 'utf8')) as {
      database: { kind: string };
      blobs: { kind: string; count?: number };
    };
    expect(manifest.database.kind).toBe(dialect);
    expect(manifest.blobs).toMatchObject({ kind: 'fs', count: 1 });
    expect(existsSync(path.join(newest, dialect === 'sqlite' ? 'database.sqlite' : 'database.pgdump'))).toBe(true);
  });
});
