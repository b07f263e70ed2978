import { Redis } from 'ioredis';
import type { EventBus } from './event-bus';

/**
 * Redis pub/sub: one connection publishes, one subscribes (a subscribed
 * connection can do nothing else). Reconnects by itself; resubscribes its
 * channels after a reconnect (ioredis autoResubscribe).
 */
export async function createRedisEventBus(options: {
  url: string;
  channelPrefix: string;
  onError?: (error: unknown) => void;
}): Promise<EventBus> {
  const connect = (name: string) =>
    new Redis(options.url, {
      connectionName: `atrium-${name}`,
      lazyConnect: true,
      maxRetriesPerRequest: 3,
      enableOfflineQueue: true,
    });
  const publisher = connect('pub');
  const subscriber = connect('sub');
  const onError = options.onError ?? (() => undefined);
  publisher.on('error', onError);
  subscriber.on('error', onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);

  const handlers = new Map<string, Set<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    const set = handlers.get(channel);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(message);
      } catch (error) {
        onError(error);
      }
    }
  });

  const full = (channel: string) => `${options.channelPrefix}${channel}`;
  return {
    kind: 'redis',
    async publish(channel, message) {
      await publisher.publish(full(channel), message);
    },
    async subscribe(channel, handler) {
      const name = full(channel);
      const entry = (message: string) => handler(message);
      let set = handlers.get(name);
      if (!set) {
        handlers.set(name, (set = new Set()));
        await subscriber.subscribe(name);
      }
      set.add(entry);
      return async () => {
        set.delete(entry);
        if (set.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          await subscriber.unsubscribe(name).catch(onError);
        }
      };
    },
    async ping() {
      await publisher.ping();
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
