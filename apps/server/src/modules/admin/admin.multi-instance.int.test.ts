import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';

/**
 * Disabling a user on one instance ends their live stream on another (the sign-out path over the bus). Runs when
 * TEST_DATABASE_URL and TEST_REDIS_URL are both set.
 */
const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

const endsWithin = (open: SseStream, ms: number) =>
  Promise.race([open.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe.runIf(ready)('disabling a user across two instances (PostgreSQL + Redis)', () => {
  let one: TestServer;
  let two: TestServer;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '', REDIS_CHANNEL_PREFIX: `atrium-test-${randomUUID()}:` };
    one = await startTestServer({ dialect: 'postgres', env });
    two = await startTestServer({ databaseUrl: one.databaseUrl, env });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await two?.close();
    await one?.close();
  });

  it("ends the user's stream on the other instance within a second, and no one else's", async () => {
    const admin = await one.signInAs({ owner_key: 'admin', role: 'admin' });
    const erin = await two.signInAs({ owner_key: 'erin' });
    const frank = await two.signInAs({ owner_key: 'frank' });
    const erinsStream = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    const franksStream = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: frank } });
    streams.push(erinsStream, franksStream);
    expect(erinsStream.status).toBe(200);

    const disabled = await one.fetch('/api/admin/users/erin', {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    expect(await endsWithin(erinsStream, 1000)).toBe(true);
    expect(await endsWithin(franksStream, 300)).toBe(false);
    expect((await two.fetch('/api/me', { headers: { cookie: erin } })).status).toBe(401);
    // Instance two verified erin's session for her stream a moment ago: the end announced over the bus made it forget.
    const reopened = await openSse(`${two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    streams.push(reopened);
    expect(reopened.status).toBe(401);
  });
});
