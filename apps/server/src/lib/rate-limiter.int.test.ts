import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { dialects, startTestServer, type TestServer } from '../../test/helpers';
import { createRateLimiter, type RateLimiter } from './rate-limiter';

describe.each(dialects())('rate limiter in the database (%s)', (dialect) => {
  let server: TestServer;
  let limiter: RateLimiter;
  let now = new Date('2026-11-21T10:00:00.000Z');
  const clock = { now: () => now };
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    limiter = createRateLimiter({ db: server.app.database.db, clock });
  });
  afterAll(async () => server?.close());

  const limit = (key: string, max = 3) => ({ key, max, windowMs: 60_000, message: 'Slow down, please.' });
  const attempt = async (key: string, max = 3) => {
    try {
      await limiter.consume(limit(key, max));
      return 'ok';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return error;
    }
  };

  it('allows max requests per window, then 429 with Retry-After until the window ends', async () => {
    for (let i = 0; i < 3; i += 1) expect(await attempt('a')).toBe('ok');
    now = new Date(now.getTime() + 20_000);
    const refused = await attempt('a');
    expect(refused).toBeInstanceOf(AppError);
    const error = refused as AppError;
    expect(error.statusCode).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toBe('Slow down, please.');
    expect(error.headers?.['retry-after']).toBe('40');
    expect(await attempt('b')).toBe('ok'); // other keys are counted apart
    now = new Date(now.getTime() + 40_000); // the window started 60 s ago: a new one begins
    expect(await attempt('a')).toBe('ok');
  });

  it('counts concurrent requests atomically: exactly max of them pass', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => attempt('burst', 5)));
    expect(results.filter((result) => result === 'ok')).toHaveLength(5);
  });

  it('sweeps the counters of one kind whose windows are long gone, and keeps the rest', async () => {
    const db = server.app.database.db;
    await db.deleteFrom('rate_limits').execute();
    await attempt('sweep:old');
    await attempt('other_kind:old'); // `_` must not act as a LIKE wildcard
    now = new Date(now.getTime() + 2 * 60 * 60_000);
    await attempt('sweep:fresh');
    await limiter.sweep('sweep:', 60 * 60_000);
    await limiter.sweep('other%', 60 * 60_000); // matches no key literally
    const keys = await db.selectFrom('rate_limits').select('key').orderBy('key').execute();
    expect(keys.map((row) => row.key)).toEqual(['other_kind:old', 'sweep:fresh']);
  });

  it('resets the counts of given keys', async () => {
    await attempt('reset-me', 1);
    expect(await attempt('reset-me', 1)).toBeInstanceOf(AppError);
    await limiter.reset(['reset-me']);
    expect(await attempt('reset-me', 1)).toBe('ok');
  });
});
