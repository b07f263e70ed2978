/**
 * Typed domain events: how modules meet without knowing each other (docs/ARCHITECTURE.md#where-modules-meet-domain-events).
 *
 * A module that changes something emits what happened; the modules that react subscribe in their own face
 * (`modules/<module>/index.ts`). `emit` awaits the handlers in the order they subscribed and logs, never propagates,
 * a handler's failure: the change already happened, and one reaction failing must not undo it or skip the others.
 * Events stay inside one instance; what other instances must hear goes over the event bus (adapters/event-bus).
 *
 * This layer imports no module: payloads are described by the types in `./payloads`.
 */
import type { DomainEvents } from './payloads';

export type { DomainEvents } from './payloads';
export type DomainEventName = keyof DomainEvents;
export type DomainEventHandler<K extends DomainEventName> = (payload: DomainEvents[K]) => Promise<void> | void;

export interface DomainEventsLog {
  warn(details: object, message: string): void;
}

/** What a module that emits needs. */
export interface EventEmitter {
  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): Promise<void>;
}

/** What a module that reacts needs. */
export interface EventSubscriber {
  /**
   * Runs `handler` on every `name` emitted after this call; `reaction` names it in the log when it fails.
   * Returns the unsubscribe.
   */
  on<K extends DomainEventName>(name: K, reaction: string, handler: DomainEventHandler<K>): () => void;
}

export interface DomainEventHub extends EventEmitter, EventSubscriber {
  /** The reactions subscribed to `name`, in order (for tests and the architecture check). */
  reactionsTo(name: DomainEventName): string[];
}

interface Subscription {
  reaction: string;
  handler: (payload: never) => Promise<void> | void;
}

export function createDomainEvents({ log }: { log: DomainEventsLog }): DomainEventHub {
  const subscriptions = new Map<DomainEventName, Subscription[]>();
  return {
    on(name, reaction, handler) {
      const list = subscriptions.get(name) ?? [];
      const subscription: Subscription = { reaction, handler: handler as Subscription['handler'] };
      subscriptions.set(name, [...list, subscription]);
      return () => {
        subscriptions.set(
          name,
          (subscriptions.get(name) ?? []).filter((entry) => entry !== subscription),
        );
      };
    },
    async emit(name, payload) {
      // A copy: a handler that subscribes or unsubscribes does not change this emit's list.
      for (const { reaction, handler } of subscriptions.get(name) ?? []) {
        try {
          await (handler as (value: typeof payload) => Promise<void> | void)(payload);
        } catch (error) {
          log.warn({ err: error, event: name, reaction }, 'a reaction to a domain event failed');
        }
      }
    },
    reactionsTo: (name) => (subscriptions.get(name) ?? []).map((entry) => entry.reaction),
  };
}
