import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { readScaleConfig } from '../../scale/scale-config';
import type { EntityModel } from '../../schema/model';
import { SqlExecutor } from '../../sql/sql-executor';
import { appendOutboxEvents } from '../../sql/statements/outbox';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import type { DomainEvent } from '../domain-event';
import { OUTBOX_TABLE } from './outbox.migration';

/** A domain event as the outbox stores it and the relay publishes it. */
export interface OutboxEvent {
  readonly eventId: string;
  /** `svc.<entity>.<action>` (`svc.loanItem.created`). */
  readonly subject: string;
  readonly event: DomainEvent;
}

/** Subject of an event on NATS: `svc.` then the in-process event name. */
export function eventSubject(eventName: string): string {
  return `svc.${eventName}`;
}

/**
 * Writes domain events into `svc_outbox` inside the transaction of the change, when `EVENTS_URL` is
 * set (`active`); without it nothing is written and writes stay single autocommitted statements.
 */
@Injectable()
export class SvcEventOutbox {
  readonly active: boolean;
  private readonly listeners = new Set<() => void>();

  constructor(
    @Inject(MODULE_OPTIONS_TOKEN) options: SvcModuleOptions,
    private readonly sql: SqlExecutor,
  ) {
    this.active = readScaleConfig(options.env ?? process.env).eventsUrl !== null;
  }

  /** Whether writes to `entity` go through the outbox (`events` on in `.svcrc`, `EVENTS_URL` set). */
  enabled(entity: EntityModel): boolean {
    return this.active && entity.events;
  }

  /** Appends `events` with the transaction's `manager`: one statement, whatever their number. */
  async append(manager: EntityManager, events: readonly { name: string; event: DomainEvent }[]): Promise<OutboxEvent[]> {
    const rows = events.map(({ name, event }) => ({ eventId: randomUUID(), subject: eventSubject(name), event }));
    if (rows.length === 0) return rows;
    await this.sql.records(
      appendOutboxEvents(
        this.sql.escape(OUTBOX_TABLE),
        rows.map((row) => ({
          eventId: row.eventId,
          subject: row.subject,
          recordKey: `${row.event.entity}:${String(row.event.id)}`,
          payload: JSON.stringify({ eventId: row.eventId, ...row.event }),
        })),
      ),
      manager,
    );
    return rows;
  }

  /** Tells the relay of this process that new events committed, so it need not wait for its next poll. */
  committed(): void {
    for (const listener of this.listeners) listener();
  }

  onCommit(listener: () => void): void {
    this.listeners.add(listener);
  }
}
