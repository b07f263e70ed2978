export { createDomainEvents, type DomainEventHub, type EventEmitter, type EventSubscriber } from './domain-events';
export type { MemberAdded, StoredFile } from './payloads';
