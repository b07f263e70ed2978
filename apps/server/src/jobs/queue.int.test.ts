import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestServer, type TestServer } from '../../test/helpers';
import { systemClock } from '../lib/time';
import { createJobQueue, PermanentJobError, type JobKind } from './queue';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { info: () => undefined, warn: () => undefined };

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error('condition not met in time');
}

describe.each(dialects())('durable job queue (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server.close());

  const db = () => server.app.database.db;
  async function makeFiles(count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    for (const id of ids) {
      await db()
        .insertInto('files')
        .values({
          id,
          owner_key: 'queue-test',
          file_name: `${id}.txt`,
          name_key: `${id}.txt`,
          size: 1,
          content_type: 'text/plain',
          sha256: id,
          blob_key: `files/${id}`,
          upload_date: new Date().toISOString(),
          folder_id: null,
          workspace_id: null,
          uploaded_by: null,
        })
        .execute();
    }
    return ids;
  }
  const makeFile = async () => (await makeFiles(1))[0] ?? '';
  const jobsOf = (ids: string[]) =>
    db().selectFrom('jobs').selectAll().where('file_id', 'in', ids).orderBy('created_at').execute();
  const queueWith = (kinds: Record<string, JobKind>, extra: Partial<Parameters<typeof createJobQueue>[0]> = {}) => {
    const queue = createJobQueue({ db: db(), dialect, clock: systemClock, log: quiet, pollMs: 50, ...extra });
    for (const [name, kind] of Object.entries(kinds)) queue.register(name, kind);
    return queue;
  };

  it('adds a job once per file, kind and content', async () => {
    const file = await makeFile();
    const queue = queueWith({});
    expect(await queue.enqueue('k', { fileId: file, contentSha: 'a' })).toBe(true);
    expect(await queue.enqueue('k', { fileId: file, contentSha: 'a' })).toBe(false);
    expect(await queue.enqueue('k', { fileId: file, contentSha: 'b' })).toBe(true);
    expect(await jobsOf([file])).toHaveLength(2);
  });

  it('queues content again once its job has finished (a version made current again), one kind at a time', async () => {
    const file = await makeFile();
    const kind = `again-${randomUUID()}`;
    const queue = queueWith({ [kind]: { concurrency: 1, run: async () => undefined } });
    await queue.enqueue(kind, { fileId: file, contentSha: 'a' });
    await queue.enqueue('other', { fileId: file, contentSha: 'a' });
    queue.start();
    await until(async () => (await jobsOf([file])).some((job) => job.kind === kind && job.state === 'done'));
    await queue.stop();
    expect(await queue.enqueue(kind, { fileId: file, contentSha: 'a' })).toBe(true);
    expect((await jobsOf([file])).map((job) => [job.kind, job.state])).toEqual([
      ['other', 'queued'],
      [kind, 'queued'],
    ]);
    expect(() => queue.register(kind, { concurrency: 1, run: async () => undefined })).toThrow(/twice/);
  });

  it('runs every job exactly once across two instances, at most `concurrency` at a time per instance', async () => {
    const files = await makeFiles(30);
    const kind = `count-${randomUUID()}`;
    const runs = new Map<string, number>();
    let active = 0;
    let maxActive = 0;
    const handler = (): JobKind => ({
      concurrency: 2,
      async run({ job }) {
        active += 1;
        maxActive = Math.max(maxActive, active);
        runs.set(job.fileId, (runs.get(job.fileId) ?? 0) + 1);
        await sleep(5);
        active -= 1;
        return undefined;
      },
    });
    const a = queueWith({ [kind]: handler() });
    const b = queueWith({ [kind]: handler() });
    for (const fileId of files) await a.enqueue(kind, { fileId, contentSha: 'x' });
    a.start();
    b.start();
    await until(async () => (await jobsOf(files)).every((job) => job.state === 'done'));
    await Promise.all([a.stop(), b.stop()]);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(runs.size).toBe(30);
    expect(maxActive).toBeLessThanOrEqual(4);
    expect((await jobsOf(files)).map((job) => Number(job.attempts))).toEqual(files.map(() => 1));
  });

  it('retries a failing job with backoff, then gives up; a permanent error fails at once', async () => {
    const files = await makeFiles(2);
    const kind = `fail-${randomUUID()}`;
    const gaveUp: string[] = [];
    const queue = queueWith({
      [kind]: {
        concurrency: 1,
        maxAttempts: 3,
        backoffMs: 40,
        async run({ job }) {
          if (job.fileId === files[1]) throw new PermanentJobError('not this kind of file', 'unsupported');
          throw new Error('engine hiccup');
        },
        onGaveUp: async (_trx, job, error, outcome) => void gaveUp.push(`${job.fileId}:${outcome}:${error}`),
      },
    });
    for (const fileId of files) await queue.enqueue(kind, { fileId, contentSha: 'x' });
    queue.start();
    await until(async () => (await jobsOf(files)).every((job) => job.state === 'failed'));
    await queue.stop();
    const jobs = await jobsOf(files);
    const retried = jobs.find((job) => job.file_id === files[0]);
    const permanent = jobs.find((job) => job.file_id === files[1]);
    expect(Number(retried?.attempts)).toBe(3);
    expect(retried?.last_error).toBe('engine hiccup');
    expect(Number(permanent?.attempts)).toBe(1);
    expect(gaveUp.sort()).toEqual(
      [`${files[0]}:failed:engine hiccup`, `${files[1]}:unsupported:not this kind of file`].sort(),
    );
  });

  it('takes over a job whose instance died (expired lease) and saves its result once', async () => {
    const file = await makeFile();
    const kind = `crash-${randomUUID()}`;
    const saved: string[] = [];
    // The first instance claims the job and never finishes it (as if killed): its lease is short and not renewed.
    const dead = queueWith(
      { [kind]: { concurrency: 1, run: () => new Promise(() => undefined) } },
      { leaseMs: 200, holder: 'dead' },
    );
    await dead.enqueue(kind, { fileId: file, contentSha: 'x' });
    dead.start();
    await until(async () => (await jobsOf([file]))[0]?.state === 'running');
    // Simulate the crash: stop renewing by dropping the lease holder's timers without handing the job back.
    await db().updateTable('jobs').set({ locked_by: 'dead-for-good' }).where('file_id', '=', file).execute();
    await dead.stop();
    const alive = queueWith({
      [kind]: {
        concurrency: 1,
        run:
          async ({ job }) =>
          async () =>
            void saved.push(job.fileId),
      },
    });
    alive.start();
    await until(async () => (await jobsOf([file]))[0]?.state === 'done');
    await alive.stop();
    expect(saved).toEqual([file]);
    expect(Number((await jobsOf([file]))[0]?.attempts)).toBe(2);
  });

  it('hands a running job back on a graceful stop, without counting the attempt', async () => {
    const file = await makeFile();
    const kind = `stop-${randomUUID()}`;
    const queue = queueWith({
      [kind]: {
        concurrency: 1,
        run: ({ signal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
      },
    });
    await queue.enqueue(kind, { fileId: file, contentSha: 'x' });
    queue.start();
    await until(async () => (await jobsOf([file]))[0]?.state === 'running');
    await queue.stop();
    const [job] = await jobsOf([file]);
    expect(job).toMatchObject({ state: 'queued', locked_by: null });
    expect(Number(job?.attempts)).toBe(0);
  });

  it('removes a file’s jobs with the file', async () => {
    const file = await makeFile();
    const queue = queueWith({});
    await queue.enqueue('k', { fileId: file, contentSha: 'a' });
    await db().deleteFrom('files').where('id', '=', file).execute();
    expect(await jobsOf([file])).toEqual([]);
  });
});
