import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from './scheduler';

const quiet = { info: () => undefined, warn: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const always = { acquire: async () => true };
let scheduler: Scheduler | undefined;
afterEach(async () => scheduler?.stop());

describe('scheduler', () => {
  it('runs a job at start and then every interval, until stopped', async () => {
    let runs = 0;
    scheduler = createScheduler({ leases: always, log: quiet, startJitterMs: 1 });
    scheduler.add({ name: 'count', intervalMs: 50, run: async () => void (runs += 1) });
    scheduler.start();
    await sleep(230);
    await scheduler.stop();
    const stoppedAt = runs;
    expect(stoppedAt).toBeGreaterThanOrEqual(2);
    expect(stoppedAt).toBeLessThanOrEqual(6);
    await sleep(120);
    expect(runs).toBe(stoppedAt);
  });

  it('never overlaps two runs of one job, and stop() waits for the run in progress', async () => {
    let active = 0;
    let maxActive = 0;
    let finished = 0;
    scheduler = createScheduler({ leases: always, log: quiet, startJitterMs: 1 });
    scheduler.add({
      name: 'slow',
      intervalMs: 20,
      run: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await sleep(90);
        active -= 1;
        finished += 1;
      },
    });
    scheduler.start();
    await sleep(150);
    await scheduler.stop();
    expect(maxActive).toBe(1);
    expect(active).toBe(0);
    expect(finished).toBeGreaterThanOrEqual(1);
  });

  it('keeps running a job whose run failed, and logs the failure', async () => {
    const warnings: string[] = [];
    let runs = 0;
    scheduler = createScheduler({
      leases: always,
      log: { info: () => undefined, warn: (details) => void warnings.push((details as { job: string }).job) },
      startJitterMs: 1,
    });
    scheduler.add({
      name: 'flaky',
      intervalMs: 30,
      run: async () => {
        runs += 1;
        throw new Error('boom');
      },
    });
    scheduler.start();
    await sleep(120);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(warnings[0]).toBe('flaky');
  });

  it('runs a `once` job only when it gets the lease; others run without asking', async () => {
    const asked: string[] = [];
    const ran: string[] = [];
    scheduler = createScheduler({
      leases: { acquire: async (name) => (asked.push(name), false) },
      log: quiet,
    });
    scheduler.add({ name: 'shared', intervalMs: 1000, once: true, run: async () => void ran.push('shared') });
    scheduler.add({ name: 'local', intervalMs: 1000, run: async () => void ran.push('local') });
    await scheduler.runNow('shared');
    await scheduler.runNow('local');
    expect(asked).toEqual(['shared']);
    expect(ran).toEqual(['local']);
  });

  it('refuses a duplicate name or an interval that is not positive', () => {
    scheduler = createScheduler({ leases: always, log: quiet });
    scheduler.add({ name: 'a', intervalMs: 10, run: async () => undefined });
    expect(() => scheduler?.add({ name: 'a', intervalMs: 10, run: async () => undefined })).toThrow(/already/);
    expect(() => scheduler?.add({ name: 'b', intervalMs: 0, run: async () => undefined })).toThrow(/positive/);
  });
});
