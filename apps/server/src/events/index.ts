export {
  createDomainEvents,
  type DomainEventHandler,
  type DomainEventHub,
  type DomainEventName,
  type DomainEvents,
  type EventEmitter,
  type EventSubscriber,
} from './domain-events';
export type { AuditedChange, EventContext, MemberAdded, StoredFile } from './payloads';
