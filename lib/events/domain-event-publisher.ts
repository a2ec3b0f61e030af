import { Logger } from '@nestjs/common';
import type { EventEmitter2 } from '@nestjs/event-emitter';
import type { WriteChange } from '../sql/write.executor';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { EntityModel } from '../schema/model';
import { type DomainEvent, type DomainEventAction, domainEventName } from './domain-event';

/** A domain event and its name; `emit: false` for one that goes to the outbox only (a `realtime` entity without `events`). */
export interface NamedDomainEvent {
  readonly name: string;
  readonly event: DomainEvent;
  readonly emit?: boolean;
}

/**
 * Emits domain events through `@nestjs/event-emitter` for entities with `events` on.
 *
 * Called only after a write has committed, so a failed or rolled-back write emits nothing.
 * Delivery is in process and at most once: a crash between the commit and the emit loses
 * the event (with `EVENTS_URL`, the outbox keeps it for the relay to NATS). Listeners receive events in write order; a listener's error is logged and never
 * changes the HTTP answer of the write that caused it.
 */
export class DomainEventPublisher {
  private readonly logger = new Logger('SvcDomainEvents');

  constructor(private readonly emitter: EventEmitter2 | null) {}

  /**
   * Whether writes to `entity` produce events (and so read the previous row): entities with `events`
   * when an emitter is installed, and every `realtime` entity (its change feed reads the outbox).
   */
  enabled(entity: EntityModel): boolean {
    return this.emits(entity) || entity.realtime;
  }

  /** Whether events of `entity` are emitted in process (`events` on, an emitter installed). */
  private emits(entity: EntityModel): boolean {
    return entity.events && this.emitter !== null;
  }

  publish(entity: EntityModel, action: DomainEventAction, changes: readonly WriteChange[], auth: AuthContext | null): void {
    this.emitAll(this.events(entity, action, changes, auth));
  }

  /** The events of `changes`, named (`loanItem.created`), not yet emitted; none when `entity` does not publish. */
  events(
    entity: EntityModel,
    action: DomainEventAction,
    changes: readonly WriteChange[],
    auth: AuthContext | null,
  ): NamedDomainEvent[] {
    if (!this.enabled(entity) || changes.length === 0) return [];
    const name = domainEventName(entity, action);
    const emit = this.emits(entity);
    const primaryKey = entity.columns.find((column) => column.kind === 'primary')?.name ?? 'id';
    const occurredAt = new Date();
    return changes.map((change) => ({
      name,
      emit,
      // Listeners get their own copy: the record is also the HTTP response body.
      event: {
        entity: entity.name,
        action,
        id: change.record[primaryKey] as string | number,
        record: copy(change.record),
        ...(change.previous ? { previous: copy(change.previous) } : {}),
        auth,
        occurredAt,
      },
    }));
  }

  /** Emits events built by `events()`, in order (those of entities without `events` only went to the outbox). */
  emitAll(events: readonly NamedDomainEvent[]): void {
    for (const { name, event, emit } of events) if (emit !== false) this.emit(name, event);
  }

  private emit(name: string, event: DomainEvent): void {
    try {
      // emitAsync: a listener's rejected promise is caught here instead of crashing the process.
      this.emitter!.emitAsync(name, event).catch((error: unknown) => this.listenerFailed(name, error));
    } catch (error) {
      this.listenerFailed(name, error);
    }
  }

  private listenerFailed(name: string, error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.logger.error(`A listener of "${name}" failed: ${detail}`);
  }
}

/** A deep copy of a row: dates, JSON arrays and objects, primitives (all a column can hold). */
function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)])) as T;
  }
  return value;
}
