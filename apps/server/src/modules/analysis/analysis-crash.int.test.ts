import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileRecord } from '@atrium/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { pngWithText } from '../../../test/analysis-fixtures';
import { createPostgresDatabase, dialects, freePort, TEST_ADMIN_PASSWORD } from '../../../test/helpers';
import { openDatabase, type DatabaseHandle } from '../../db';
import { systemClock } from '../../lib/time';
import { createSessionService } from '../auth/sessions.service';
import { createUsersRepository } from '../auth/users.repository';
import { SESSION_COOKIE } from '../../plugins/session';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FILES = 50;
/** Words tesseract reads reliably, one per file, so each file's text proves it was its own image that was read. */
const word = (i: number) => `Harbour ${100 + i}`;

/** The real server (src/main.ts through tsx) as a child process, killable with SIGKILL. */
function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output()}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error(`the server did not become ready:\n${output()}`);
}

/**
 * kill -9 in the middle of a queue of 50 analyses: after a restart every file is analysed, and exactly once — one
 * insights row per file with its own image's text, every job done, and no job run more often than the runs the
 * killed instance had in flight (one: images are analysed one at a time).
 */
describe.each(dialects())('analysis survives kill -9 (%s)', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-crash-'));
  let drop: (() => Promise<void>) | undefined;
  let handle: DatabaseHandle | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await handle?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('analyses every file exactly once across the crash', { timeout: 400_000 }, async () => {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPostgresDatabase();
      databaseUrl = created.url;
      drop = created.drop;
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      WEB_DIST: path.join(dataDir, 'no-web-dist'),
      ANALYSIS_ENABLED: 'true',
      // Analysis jobs only: background thumbnails share the job table and would double the count.
      THUMBNAILS_IN_BACKGROUND: 'false',
      // OCR only (tesseract, a child process): the analysis is real but needs no AI model in memory.
      AI_IMAGE_ANALYSIS_PROVIDER: 'disabled',
      AI_FACE_DETECTION_PROVIDER: 'disabled',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const first = startServer(env);
    children.push(first.child);
    await waitReady(url, first.child, first.output);

    handle = openDatabase(
      databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: path.join(dataDir, 'atrium.db') },
    );
    const db = handle.db;
    const users = createUsersRepository(db, systemClock);
    const user = await users.insert({
      name: 'Crash',
      nickname: 'crash',
      email: 'crash@example.test',
      picture: null,
      role: 'user',
      oidc_issuer: null,
      oidc_subject: null,
      owner_key: 'crash',
    });
    const sessions = createSessionService({ db, clock: systemClock, idleMs: 3_600_000, absoluteMs: 86_400_000 });
    const cookie = `${SESSION_COOKIE}=${await sessions.create(user.id)}`;

    const ids: string[] = [];
    for (let i = 0; i < FILES; i += 1) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await pngWithText(word(i)))]), `sign-${i}.png`);
      const response = await fetch(`${url}/api/files/upload?userId=crash`, {
        method: 'POST',
        headers: { cookie, accept: 'application/json' },
        body: form,
      });
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as FileRecord).id);
    }
    const jobs = () => db.selectFrom('jobs').selectAll().where('file_id', 'in', ids).execute();
    expect(await jobs()).toHaveLength(FILES);

    // Kill the instance while the queue is half way: some files analysed, one running, the rest waiting.
    const deadline = Date.now() + 200_000;
    let doneAtKill = 0;
    for (;;) {
      const states = (await jobs()).map((job) => job.state);
      doneAtKill = states.filter((state) => state === 'done').length;
      if (doneAtKill >= 5 && states.includes('running')) break;
      if (Date.now() > deadline) throw new Error(`the queue did not progress: ${states.join(',')}`);
      await sleep(50);
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(doneAtKill).toBeLessThan(FILES);
    expect((await jobs()).some((job) => job.state !== 'done')).toBe(true);

    const second = startServer(env);
    children.push(second.child);
    await waitReady(url, second.child, second.output);
    for (;;) {
      const states = (await jobs()).map((job) => job.state);
      if (states.every((state) => state === 'done' || state === 'failed')) break;
      if (Date.now() > deadline + 120_000) throw new Error(`the queue did not finish: ${states.join(',')}`);
      await sleep(250);
    }
    second.child.kill('SIGTERM');

    const finished = await jobs();
    expect(finished.map((job) => job.state)).toEqual(ids.map(() => 'done'));
    // Runs: one per job, plus at most the one the killed instance had in flight.
    const attempts = finished.map((job) => Number(job.attempts));
    expect(attempts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(FILES + 1);
    expect(attempts.filter((n) => n > 1).length).toBeLessThanOrEqual(1);
    const insights = await db.selectFrom('file_insights').selectAll().where('file_id', 'in', ids).execute();
    expect(insights).toHaveLength(FILES);
    for (const [i, id] of ids.entries()) {
      const row = insights.find((r) => r.file_id === id);
      expect(row?.status).toBe('done');
      expect(row?.text).toContain(String(100 + i));
    }
  });
});
