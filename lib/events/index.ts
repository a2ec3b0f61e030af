export { DOMAIN_EVENT_ACTIONS, domainEventName, type DomainEvent, type DomainEventAction } from './domain-event';
export { DomainEventPublisher } from './domain-event-publisher';
export { PublishingWriter } from './publishing-writer';
