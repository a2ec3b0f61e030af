import { Inject, Injectable, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { EntityPlans } from './crud/entity-plan';
import { ReadExecutor } from './crud/read.executor';
import { SqlRunner } from './crud/sql-runner';
import { WriteExecutor } from './crud/write.executor';
import { readPreparedStatements } from './database/database-config';
import { DomainEventPublisher } from './events/domain-event-publisher';
import { SvcEventOutbox } from './events/outbox/event-outbox';
import { OutboxTransactions } from './events/outbox/outbox-transactions';
import { PublishingWriter } from './events/publishing-writer';
import type { CrudRequest } from './interfaces/crud-request.interface';
import type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
import type { EntityModel, ServiceModel } from './schema/model';
import { SVC_MODEL } from './svc.constants';
import { MODULE_OPTIONS_TOKEN } from './svc.module-definition';

/**
 * The service model and the shared query machinery, built once per application.
 * Generated services reach their entity through it.
 */
@Injectable()
export class SvcRuntime {
  readonly entities: ReadonlyMap<string, EntityModel>;
  readonly plans: EntityPlans;
  readonly reader: ReadExecutor;
  readonly writer: WriteExecutor;
  /** Domain events of entities with `events` on (`<entity>.created`...), after each write commits. */
  readonly events: DomainEventPublisher;
  /** With `EVENTS_URL`: writes of entities with `events` commit together with their outbox rows. */
  private readonly outbox: OutboxTransactions | null;

  constructor(
    @Inject(SVC_MODEL) readonly model: ServiceModel,
    readonly dataSource: DataSource,
    @Optional() eventEmitter?: EventEmitter2,
    @Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions,
    @Optional() eventOutbox?: SvcEventOutbox,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.plans = new EntityPlans(dataSource, this.entities);
    const runner = new SqlRunner(dataSource, readPreparedStatements(options?.env ?? process.env));
    this.reader = new ReadExecutor(runner, this.plans, (name) => dataSource.driver.escape(name));
    this.writer = new WriteExecutor(dataSource, this.plans);
    this.events = new DomainEventPublisher(eventEmitter ?? null);
    this.outbox = eventOutbox?.active ? new OutboxTransactions(dataSource, this.plans, eventOutbox) : null;
  }

  /** `writer` for one request's writes: each publishes its domain events once committed. */
  writerFor(request: Pick<CrudRequest, 'auth'>): PublishingWriter {
    return new PublishingWriter(this.writer, this.events, request.auth, this.outbox);
  }

  entity(name: string): EntityModel {
    const entity = this.entities.get(name);
    if (!entity) throw new Error(`Entity "${name}" is not in the service model: regenerate from .svcrc.`);
    return entity;
  }
}
