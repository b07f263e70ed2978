import { describe, expect, it } from 'vitest';
import { openSse, type SseStream } from '../../../test/sse';
import { canScaleOut, twoInstances } from '../../../test/two-instances';

/**
 * Disabling a user on one instance ends their live stream on another (the sign-out path over the bus). Runs when
 * TEST_DATABASE_URL and TEST_REDIS_URL are both set.
 */
const endsWithin = (open: SseStream, ms: number) =>
  Promise.race([open.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe.runIf(canScaleOut)('disabling a user across two instances (PostgreSQL + Redis)', () => {
  const pair = twoInstances();

  it("ends the user's stream on the other instance within a second, and no one else's", async () => {
    const admin = await pair.one.signInAs({ owner_key: 'admin', role: 'admin' });
    const erin = await pair.two.signInAs({ owner_key: 'erin' });
    const frank = await pair.two.signInAs({ owner_key: 'frank' });
    const erinsStream = await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    const franksStream = await openSse(`${pair.two.url}/public/api/notifications/stream`, {
      headers: { cookie: frank },
    });
    pair.streams.push(erinsStream, franksStream);
    expect(erinsStream.status).toBe(200);

    const disabled = await pair.one.fetch('/api/admin/users/erin', {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    expect(await endsWithin(erinsStream, 1000)).toBe(true);
    expect(await endsWithin(franksStream, 300)).toBe(false);
    expect((await pair.two.fetch('/api/me', { headers: { cookie: erin } })).status).toBe(401);
    // Instance two verified erin's session for her stream a moment ago: the end announced over the bus made it forget.
    const reopened = await openSse(`${pair.two.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    pair.streams.push(reopened);
    expect(reopened.status).toBe(401);
  });
});
