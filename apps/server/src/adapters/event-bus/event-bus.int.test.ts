import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from './index';

/**
 * One contract, every implementation. Redis runs when TEST_REDIS_URL is set
 * (CI sets it); each run uses its own channel prefix so parallel runs on one
 * Redis do not see each other.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const runPrefix = `atrium-test-${randomUUID()}:`;

interface Implementation {
  name: string;
  create: () => Promise<EventBus>;
  /** Whether two buses created separately reach each other (true for a networked bus). */
  shared: boolean;
}

const implementations: Implementation[] = [
  { name: 'memory', create: () => createEventBus(), shared: false },
  ...(redisUrl
    ? [{ name: 'redis', create: () => createEventBus({ redisUrl, channelPrefix: runPrefix }), shared: true }]
    : []),
];

/** Collects messages and resolves once `count` have arrived (or rejects after 5 s). */
function collector(count: number) {
  const received: string[] = [];
  let resolve: (value: string[]) => void = () => undefined;
  const done = new Promise<string[]>((r) => (resolve = r));
  const timer = setTimeout(() => resolve(received), 5000);
  return {
    received,
    done,
    handler: (message: string) => {
      received.push(message);
      if (received.length >= count) {
        clearTimeout(timer);
        resolve(received);
      }
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe.each(implementations)('event bus contract ($name)', ({ create, shared }) => {
  const open: EventBus[] = [];
  const make = async () => {
    const bus = await create();
    open.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  it('delivers published messages to every subscriber of the channel, in order', async () => {
    const bus = await make();
    const channel = `c-${randomUUID()}`;
    const a = collector(3);
    const b = collector(3);
    await bus.subscribe(channel, a.handler);
    await bus.subscribe(channel, b.handler);
    for (const message of ['one', 'two', 'three']) await bus.publish(channel, message);
    expect(await a.done).toEqual(['one', 'two', 'three']);
    expect(await b.done).toEqual(['one', 'two', 'three']);
  });

  it('keeps channels apart', async () => {
    const bus = await make();
    const mine = collector(1);
    const other = collector(1);
    await bus.subscribe('alpha', mine.handler);
    await bus.subscribe('beta', other.handler);
    await bus.publish('alpha', 'for alpha');
    expect(await mine.done).toEqual(['for alpha']);
    await settle();
    expect(other.received).toEqual([]);
  });

  it('stops delivering after unsubscribe, without affecting other subscribers', async () => {
    const bus = await make();
    const gone = collector(1);
    const stays = collector(2);
    const unsubscribe = await bus.subscribe('gamma', gone.handler);
    await bus.subscribe('gamma', stays.handler);
    await bus.publish('gamma', 'first');
    await gone.done;
    await unsubscribe();
    await bus.publish('gamma', 'second');
    expect(await stays.done).toEqual(['first', 'second']);
    await settle();
    expect(gone.received).toEqual(['first']);
  });

  it('carries text exactly (unicode, newlines, large messages)', async () => {
    const bus = await make();
    const message = JSON.stringify({ text: 'héllo 👋\nline two', big: 'x'.repeat(64 * 1024) });
    const got = collector(1);
    await bus.subscribe('delta', got.handler);
    await bus.publish('delta', message);
    expect(await got.done).toEqual([message]);
  });

  it('answers ping while open and refuses after close', async () => {
    const bus = await make();
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
    await expect(bus.ping()).rejects.toThrow();
  });

  it(
    shared ? 'reaches a subscriber on another bus instance (another server)' : 'stays inside its own instance',
    async () => {
      const one = await make();
      const two = await make();
      const got = collector(2);
      await two.subscribe('epsilon', got.handler);
      await one.publish('epsilon', 'from one');
      await one.publish('epsilon', 'again');
      if (shared) expect(await got.done).toEqual(['from one', 'again']);
      else {
        await settle();
        expect(got.received).toEqual([]);
      }
    },
  );
});
