import type { EventBus } from './event-bus';

/** The default bus: one process, no network. Handlers run asynchronously, like a real bus. */
export function createMemoryEventBus(): EventBus {
  const channels = new Map<string, Set<(message: string) => void>>();
  let closed = false;
  return {
    kind: 'memory',
    async publish(channel, message) {
      if (closed) throw new Error('event bus is closed');
      const handlers = channels.get(channel);
      if (!handlers) return;
      for (const handler of [...handlers]) queueMicrotask(() => handler(message));
    },
    async subscribe(channel, handler) {
      if (closed) throw new Error('event bus is closed');
      // Wrap so the same function subscribed twice counts twice.
      const entry = (message: string) => handler(message);
      let handlers = channels.get(channel);
      if (!handlers) channels.set(channel, (handlers = new Set()));
      handlers.add(entry);
      return async () => {
        handlers.delete(entry);
        if (handlers.size === 0) channels.delete(channel);
      };
    },
    async ping() {
      if (closed) throw new Error('event bus is closed');
    },
    async close() {
      closed = true;
      channels.clear();
    },
  };
}
