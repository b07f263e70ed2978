export { createDomainEvents, type DomainEventHub, type EventEmitter, type EventSubscriber } from './domain-events';
export type { DropReceived, MemberAdded, MemberChanged, StoredFile } from './payloads';
