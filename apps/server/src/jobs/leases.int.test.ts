import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestServer, type TestServer } from '../../test/helpers';
import { createDbLeases } from './leases';

describe.each(dialects())('job leases and scheduled jobs (%s)', (dialect) => {
  let server: TestServer;
  let second: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    if (server.databaseUrl) {
      second = await startTestServer({ dialect, env: { DATABASE_URL: server.databaseUrl } });
    }
  });
  afterAll(async () => {
    await second?.close();
    await server.close();
  });

  it('gives a lease to one holder until it expires, and renews it for the same holder', async () => {
    let now = new Date('2026-11-24T10:00:00.000Z');
    const clock = { now: () => now };
    const db = server.app.database.db;
    const a = createDbLeases({ db, clock, holder: 'instance-a' });
    const b = createDbLeases({ db, clock, holder: 'instance-b' });
    const name = `test-${dialect}-${Math.random().toString(36).slice(2)}`;
    expect(await a.acquire(name, 60_000)).toBe(true);
    expect(await b.acquire(name, 60_000)).toBe(false);
    expect(await a.acquire(name, 60_000)).toBe(true);
    now = new Date('2026-11-24T10:01:00.001Z');
    expect(await b.acquire(name, 60_000)).toBe(true);
    expect(await a.acquire(name, 60_000)).toBe(false);
  });

  it('lets simultaneous takers get one lease between them', async () => {
    const clock = { now: () => new Date() };
    const db = server.app.database.db;
    const name = `race-${dialect}-${Math.random().toString(36).slice(2)}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createDbLeases({ db, clock, holder: `h${i}` }).acquire(name, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it.runIf(dialect === 'postgres')('runs a `once` job on one of two instances sharing the database', async () => {
    if (!second) throw new Error('no second instance');
    const runs: string[] = [];
    for (const [label, instance] of [
      ['first', server],
      ['second', second],
    ] as const) {
      instance.app.scheduler.add({
        name: 'test.once',
        intervalMs: 60_000,
        once: true,
        runOnStart: false,
        run: async () => void runs.push(label),
      });
    }
    await Promise.all([server.app.scheduler.runNow('test.once'), second.app.scheduler.runNow('test.once')]);
    expect(runs).toHaveLength(1);
  });

  it('schedules the server’s own jobs', () => {
    expect(server.app.scheduler.list().map((job) => job.name)).toEqual(
      expect.arrayContaining(['sessions.sweep', 'rate-limits.sweep', 'uploads.leftovers']),
    );
  });
});
