import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './helpers';
import type { SseStream } from './sse';

/** Two instances need a shared PostgreSQL database and Redis: CI sets both variables. */
export const canScaleOut = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/**
 * For a `describe.runIf(canScaleOut)`: two server instances on one PostgreSQL database and one Redis (a channel
 * prefix of their own), started before the suite and closed after it with every stream pushed to `streams`.
 */
export function twoInstances(): { one: TestServer; two: TestServer; streams: SseStream[] } {
  const pair = { streams: [] as SseStream[] } as { one: TestServer; two: TestServer; streams: SseStream[] };
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '', REDIS_CHANNEL_PREFIX: `atrium-test-${randomUUID()}:` };
    pair.one = await startTestServer({ dialect: 'postgres', env });
    pair.two = await startTestServer({ databaseUrl: pair.one.databaseUrl, env });
  });
  afterAll(async () => {
    pair.streams.forEach((stream) => stream.close());
    await pair.two?.close();
    await pair.one?.close();
  });
  return pair;
}
