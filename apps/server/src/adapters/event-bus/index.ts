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
