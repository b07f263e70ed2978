import { randomUUID } from 'node:crypto';
import { ERRORS } from '@tus/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../../adapters/event-bus';
import { createRedisLocker } from './redis-locker';

/** The Redis-shared tus locker on its own, as two instances would use it. Runs when TEST_REDIS_URL is set. */
const url = process.env.TEST_REDIS_URL;

describe.runIf(Boolean(url))('tus locks shared through Redis', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** One "instance": its own bus and locker on the shared Redis. */
  async function instance(prefix: string, options: { ttlMs?: number; acquireTimeoutMs?: number } = {}) {
    const bus: EventBus = await createEventBus({ redisUrl: url, channelPrefix: prefix });
    const locker = await createRedisLocker({ url: url ?? '', keyPrefix: prefix, bus, ...options });
    closers.push(
      () => bus.close(),
      () => locker.close(),
    );
    return locker;
  }
  const signal = () => new AbortController().signal;

  it('asks the holder on another instance to release, then takes the lock over', async () => {
    const prefix = `atrium-test-${randomUUID()}:`;
    const [one, two] = [await instance(prefix), await instance(prefix)];
    const held = one.newLock('upload-1');
    let asked = 0;
    await held.lock(signal(), async () => {
      asked += 1;
      await held.unlock();
    });
    const next = two.newLock('upload-1');
    await next.lock(signal(), () => undefined);
    expect(asked).toBeGreaterThan(0);
    // Other uploads are independent.
    await one.newLock('upload-2').lock(signal(), () => undefined);
    await next.unlock();
  });

  it('gives up with the tus lock time-out while the holder does not let go', async () => {
    const prefix = `atrium-test-${randomUUID()}:`;
    const one = await instance(prefix);
    const two = await instance(prefix, { acquireTimeoutMs: 300 });
    await one.newLock('upload-1').lock(signal(), () => undefined);
    await expect(two.newLock('upload-1').lock(signal(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  });

  it('frees the lock of an instance that went away once it is no longer renewed', async () => {
    const prefix = `atrium-test-${randomUUID()}:`;
    const bus = await createEventBus({ redisUrl: url, channelPrefix: prefix });
    const gone = await createRedisLocker({ url: url ?? '', keyPrefix: prefix, bus, ttlMs: 300 });
    await gone.newLock('upload-1').lock(signal(), () => undefined);
    // The instance stops (no unlock, no renewal, no answer to release requests).
    await gone.close();
    await bus.close();
    const two = await instance(prefix, { acquireTimeoutMs: 5000 });
    await two.newLock('upload-1').lock(signal(), () => undefined);
  });
});
