import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { readDatabaseConfig } from '../../database/database-config';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { readScaleConfig } from '../../scale/scale-config';
import type { EntityModel, ServiceModel } from '../../schema/model';
import { SqlExecutor } from '../../sql/sql-executor';
import { tableExists } from '../../sql/statements/catalog';
import { appendOutboxEvents } from '../../sql/statements/outbox';
import { SVC_MODEL } from '../../svc.constants';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import type { DomainEvent } from '../domain-event';
import type { NamedDomainEvent } from '../domain-event-publisher';
import { OUTBOX_TABLE, SvcOutbox1764028800000 } from './outbox.migration';

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
 * Writes domain events into `svc_outbox` inside the transaction of the change: those of entities with
 * `events` when `EVENTS_URL` is set (`active`, for the relay to NATS), and those of every `realtime`
 * entity (the resume log of its change feed). Other writes stay single autocommitted statements.
 */
@Injectable()
export class SvcEventOutbox implements OnModuleInit {
  readonly active: boolean;
  /** Whether any write goes through the outbox: `active`, or some entity is `realtime`. */
  readonly inUse: boolean;
  private readonly listeners = new Set<(events: readonly OutboxEvent[]) => void>();

  constructor(
    @Inject(MODULE_OPTIONS_TOKEN) private readonly options: SvcModuleOptions,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlExecutor,
  ) {
    this.active = readScaleConfig(options.env ?? process.env).eventsUrl !== null;
    this.inUse = this.active || model.entities.some((entity) => entity.realtime);
  }

  /** Synchronized databases get the table here; others must have applied its migration (refused at startup otherwise). */
  async onModuleInit(): Promise<void> {
    if (!this.inUse) return;
    if (readDatabaseConfig(this.options.env ?? process.env, this.model).synchronize) {
      const runner = this.dataSource.createQueryRunner();
      try {
        await new SvcOutbox1764028800000().up(runner);
      } finally {
        await runner.release();
      }
      return;
    }
    const [row] = await this.sql.records<{ present: boolean }>(tableExists(OUTBOX_TABLE));
    if (!row?.present) {
      const why = this.active ? 'EVENTS_URL is set' : 'an entity has "realtime"';
      throw new Error(`${why}, but the table ${OUTBOX_TABLE} does not exist: apply its migration (svc migrate run) before starting.`);
    }
  }

  /** Whether writes to `entity` go through the outbox (`events` with `EVENTS_URL`, or `realtime`). */
  enabled(entity: EntityModel): boolean {
    return (this.active && entity.events) || entity.realtime;
  }

  /** Appends `events` with the transaction's `manager`: one statement, whatever their number. */
  async append(manager: EntityManager, events: readonly NamedDomainEvent[]): Promise<OutboxEvent[]> {
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

  /** Tells this process that `events` committed: the relay need not wait for its next poll, change feeds fan them out. */
  committed(events: readonly OutboxEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }

  onCommit(listener: (events: readonly OutboxEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
