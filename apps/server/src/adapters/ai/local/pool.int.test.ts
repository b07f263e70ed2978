import { afterEach, describe, expect, it } from 'vitest';
import { BadInputError, EngineFailedError, EngineUnavailableError, QueueFullError, TimeoutError } from './errors.js';
import { WorkerPool, type WorkerPoolOptions } from './pool.js';
import type { TestJob, TestResult, TestWorkerData } from './testing/pool-test.worker.js';

const pools: WorkerPool<TestJob, TestResult>[] = [];
function makePool(
  opts: Partial<WorkerPoolOptions> & { workerData?: TestWorkerData } = {},
): WorkerPool<TestJob, TestResult> {
  const pool = new WorkerPool<TestJob, TestResult>({
    name: 'Test engine',
    workerUrl: new URL('./testing/pool-test.worker.ts', import.meta.url),
    ...opts,
  });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('WorkerPool', () => {
  it('starts lazily and reports its state', async () => {
    const pool = makePool({ workerData: { startDelayMs: 200 } });
    expect(pool.state()).toEqual({ status: 'idle', message: 'Not loaded yet; loads on the first request' });
    const warm = pool.warmUp();
    expect(pool.state().status).toBe('loading');
    await warm;
    expect(pool.state()).toEqual({ status: 'ready' });
  });

  it('kills a job that runs too long, rejects with TimeoutError and recovers', async () => {
    const pool = makePool({ timeoutMs: 300 });
    await pool.warmUp();
    const t0 = Date.now();
    await expect(pool.run({ op: 'spin', ms: 20_000 })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - t0).toBeLessThan(3000);
    const after = await pool.run({ op: 'sleep', ms: 1 });
    expect(after.end).toBeGreaterThanOrEqual(after.start);
    expect(pool.state().status).toBe('ready');
  });

  it('after a time-out, the job waiting behind it runs on a fresh worker', async () => {
    const pool = makePool({ timeoutMs: 300, concurrency: 1 });
    const before = await pool.run({ op: 'sleep', ms: 1 });
    const stuck = pool.run({ op: 'spin', ms: 20_000 });
    const waiting = pool.run({ op: 'sleep', ms: 1 });
    expect(pool.stats()).toEqual({ queued: 1, running: 1, workers: 1, unloads: 0 });
    await expect(stuck).rejects.toBeInstanceOf(TimeoutError);
    const after = await waiting;
    expect(after.threadId).not.toBe(before.threadId);
    expect(pool.stats()).toEqual({ queued: 0, running: 0, workers: 1, unloads: 0 });
  });

  it('rejects with QueueFullError when the queue is full, and runs the rest', async () => {
    const pool = makePool({ concurrency: 1, maxQueue: 2 });
    await pool.warmUp();
    const accepted = [1, 2, 3].map(() => pool.run({ op: 'sleep', ms: 150 }));
    await expect(pool.run({ op: 'sleep', ms: 1 })).rejects.toBeInstanceOf(QueueFullError);
    const done = await Promise.all(accepted);
    expect(done).toHaveLength(3);
    // FIFO: each job starts after the previous one ended.
    for (let i = 1; i < done.length; i++)
      expect(done[i]?.start).toBeGreaterThanOrEqual((done[i - 1]?.end ?? Infinity) - 1);
  });

  it('never runs more jobs at once than its concurrency', async () => {
    const pool = makePool({ concurrency: 2, maxQueue: 10 });
    await pool.warmUp();
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.run({ op: 'sleep', ms: 120 })));
    // Sweep over start/end events (intervals shrunk by 10 ms against clock jitter between threads).
    const events = results
      .flatMap((r) => [
        { t: r.start + 10, d: +1 },
        { t: r.end - 10, d: -1 },
      ])
      .sort((a, b) => a.t - b.t || a.d - b.d);
    let running = 0;
    let maxOverlap = 0;
    for (const e of events) {
      running += e.d;
      maxOverlap = Math.max(maxOverlap, running);
    }
    expect(maxOverlap).toBe(2);
    expect(new Set(results.map((r) => r.threadId)).size).toBe(2);
  });

  it('passes typed errors from the worker through', async () => {
    const pool = makePool();
    const error = await pool.run({ op: 'fail', message: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadInputError);
    expect((error as BadInputError).code).toBe('BAD_INPUT');
    expect((error as BadInputError).message).toBe('nope');
  });

  it('survives a worker that crashes', async () => {
    const pool = makePool();
    await expect(pool.run({ op: 'crash' })).rejects.toBeInstanceOf(EngineFailedError);
    await expect(pool.run({ op: 'sleep', ms: 1 })).resolves.toBeDefined();
  });

  it('reports a start failure as state "error" with its message', async () => {
    const pool = makePool({ workerData: { failStart: 'model missing' } });
    await expect(pool.run({ op: 'sleep', ms: 1 })).rejects.toThrow('model missing');
    expect(pool.state()).toEqual({ status: 'error', message: 'model missing' });
  });

  it('rejects pending jobs on close()', async () => {
    const pool = makePool({ concurrency: 1 });
    await pool.warmUp();
    const running = pool.run({ op: 'sleep', ms: 500 });
    const queued = pool.run({ op: 'sleep', ms: 1 });
    const settled = Promise.allSettled([running, queued]);
    await pool.close();
    for (const outcome of await settled) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(EngineUnavailableError);
    }
    await expect(pool.run({ op: 'sleep', ms: 1 })).rejects.toBeInstanceOf(EngineUnavailableError);
  });

  describe('idle unload', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('terminates the workers after the idle period; the next job loads them again and answers', async () => {
      const pool = makePool({ concurrency: 2, idleUnloadMs: 150 });
      const first = await pool.run({ op: 'sleep', ms: 1 });
      expect(pool.state()).toEqual({ status: 'ready' });
      expect(pool.stats().workers).toBe(2);
      await sleep(400);
      expect(pool.stats()).toEqual({ queued: 0, running: 0, workers: 0, unloads: 1 });
      expect(pool.state()).toEqual({
        status: 'idle',
        message: 'Unloaded after 150 ms without requests; loads again on the next one',
      });
      const again = await pool.run({ op: 'sleep', ms: 1 });
      expect(again.threadId).not.toBe(first.threadId);
      expect(pool.state()).toEqual({ status: 'ready' });
    });

    it('a job keeps the workers: the countdown starts when the pool is idle again', async () => {
      const pool = makePool({ idleUnloadMs: 1000 });
      const first = await pool.run({ op: 'sleep', ms: 1 });
      // A job longer than the idle period: never unloaded while it runs.
      const long = await pool.run({ op: 'sleep', ms: 1500 });
      expect(long.threadId).toBe(first.threadId);
      await sleep(300);
      expect(pool.stats().workers).toBe(1);
      const third = await pool.run({ op: 'sleep', ms: 1 });
      expect(third.threadId).toBe(first.threadId);
      expect(pool.stats().unloads).toBe(0);
    });

    it('loses no job sent around the moment of the unload', async () => {
      const pool = makePool({ concurrency: 1, idleUnloadMs: 30, maxQueue: 100 });
      await pool.run({ op: 'sleep', ms: 1 });
      const results: Promise<unknown>[] = [];
      // Jobs every 10–50 ms, some landing right on or after an unload (at 30 ms idle).
      for (let i = 0; i < 12; i++) {
        await sleep(10 + (i % 5) * 10);
        results.push(pool.run({ op: 'sleep', ms: 1 }));
      }
      const settled = await Promise.allSettled(results);
      expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(pool.stats().unloads).toBeGreaterThan(0);
    });

    it('warmUp() loads at once, and the idle countdown starts from there', async () => {
      const pool = makePool({ idleUnloadMs: 150 });
      await pool.warmUp();
      expect(pool.stats().workers).toBe(1);
      await sleep(400);
      expect(pool.stats().workers).toBe(0);
    });

    it('0 never unloads', async () => {
      const pool = makePool({ idleUnloadMs: 0 });
      await pool.run({ op: 'sleep', ms: 1 });
      await sleep(300);
      expect(pool.stats()).toMatchObject({ workers: 1, unloads: 0 });
    });
  });
});
