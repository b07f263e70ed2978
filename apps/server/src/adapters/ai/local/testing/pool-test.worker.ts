/** Worker used by pool.test.ts: sleeps, spins, fails or crashes on request. */
import { threadId } from 'node:worker_threads';
import { BadInputError } from '../errors.js';
import { serveWorker } from '../worker-runtime.js';

export interface TestWorkerData {
  startDelayMs?: number;
  failStart?: string;
}

export type TestJob =
  { op: 'sleep'; ms: number } | { op: 'spin'; ms: number } | { op: 'fail'; message: string } | { op: 'crash' };

export interface TestResult {
  threadId: number;
  start: number;
  end: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

serveWorker<TestJob, TestResult, TestWorkerData>(async (data) => {
  if (data?.startDelayMs) await sleep(data.startDelayMs);
  if (data?.failStart) throw new Error(data.failStart);
  return async (job) => {
    const start = performance.timeOrigin + performance.now();
    if (job.op === 'sleep') await sleep(job.ms);
    if (job.op === 'spin') {
      const until = Date.now() + job.ms;
      while (Date.now() < until) {
        // busy: the event loop is blocked, only terminate() can stop this
      }
    }
    if (job.op === 'fail') throw new BadInputError(job.message);
    if (job.op === 'crash') process.exit(3);
    return { value: { threadId, start, end: performance.timeOrigin + performance.now() } };
  };
});
