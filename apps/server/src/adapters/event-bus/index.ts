/**
 * `EventBus` (`event-bus.ts`: publish and subscribe strings on channels) between instances: in-process
 * (`memory-event-bus.ts`) by default, Redis pub/sub with `REDIS_URL` (`redis-event-bus.ts`: one connection publishes,
 * one subscribes). Notifications, stream ends and tus lock releases travel on it; one contract suite
 * (`event-bus.int.test.ts`) runs against both; `/readyz` probes it. Domain events between modules are not this bus:
 * they are `src/events/`.
 */
import type { EventBus, EventBusOptions } from './event-bus';
import { createMemoryEventBus } from './memory-event-bus';
import { createRedisEventBus } from './redis-event-bus';

export type { EventBus, EventBusOptions } from './event-bus';

/** The configured bus: Redis when a URL is given, otherwise in-process. */
export async function createEventBus(options: EventBusOptions = {}): Promise<EventBus> {
  if (!options.redisUrl) return createMemoryEventBus();
  return createRedisEventBus({
    url: options.redisUrl,
    channelPrefix: options.channelPrefix ?? 'atrium:',
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
