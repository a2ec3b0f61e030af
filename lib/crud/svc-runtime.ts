import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SvcIdentityService } from '../auth/identity.service';
import { DomainEventPublisher } from '../events/domain-event-publisher';
import { SvcEventOutbox } from '../events/outbox/event-outbox';
import { OutboxTransactions } from '../events/outbox/outbox-transactions';
import { PublishingWriter } from '../events/publishing-writer';
import { PublishingBulkWriter } from '../events/publishing-bulk-writer';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import { CursorCodec } from '../query/cursor-codec';
import type { EntityModel, ServiceModel } from '../schema/model';
import { MembershipConsent } from '../scope/membership-consent';
import { ScopeEnforcer } from '../scope/scope-enforcer';
import { EntityPlans } from '../sql/entity-plan';
import { ReadExecutor } from '../sql/read.executor';
import { SqlExecutor } from '../sql/sql-executor';
import { WriteExecutor } from '../sql/write.executor';
import { BulkWrites } from '../sql/bulk-writes';
import { SVC_MODEL } from '../svc.constants';

/**
 * The service model and the shared query machinery, built once per application.
 * Generated services reach their entity through it. Each part is a Nest provider of its own
 * (`EntityPlans`, `ReadExecutor`, `WriteExecutor`, `ScopeEnforcer`, `DomainEventPublisher`...),
 * so `Test.createTestingModule(...).overrideProvider(<part>)` replaces it here too.
 */
@Injectable()
export class SvcRuntime {
  readonly entities: ReadonlyMap<string, EntityModel>;
  /** With `EVENTS_URL`: writes of entities with `events` commit together with their outbox rows. */
  private readonly outbox: OutboxTransactions | null;
  private readonly bulk: BulkWrites;
  /** Whose user a membership write may name: see `MembershipConsent`. */
  readonly memberships: MembershipConsent;

  constructor(
    @Inject(SVC_MODEL) readonly model: ServiceModel,
    readonly dataSource: DataSource,
    readonly plans: EntityPlans,
    readonly reader: ReadExecutor,
    readonly writer: WriteExecutor,
    /** Domain events of entities with `events` on (`<entity>.created`...), after each write commits. */
    readonly events: DomainEventPublisher,
    /** Tenant scope (`scopeBy`) of every CRUD statement. */
    readonly scope: ScopeEnforcer,
    /** Users, memberships and sessions of `auth`. */
    readonly identity: SvcIdentityService,
    executor: SqlExecutor,
    /** Signs and checks the `nextCursor` of lists (`SVC_CURSOR_SECRET`, see `resolveCursorKey()`). */
    readonly cursors: CursorCodec,
    @Optional() eventOutbox?: SvcEventOutbox,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.outbox = eventOutbox?.active ? new OutboxTransactions(executor, plans, eventOutbox) : null;
    this.bulk = new BulkWrites(executor, plans, reader);
    this.memberships = new MembershipConsent(model, plans, executor);
  }

  /** `writer` for one request's writes: each publishes its domain events once committed. */
  writerFor(request: Pick<CrudRequest, 'auth'>): PublishingWriter {
    return new PublishingWriter(this.writer, this.events, request.auth, this.outbox);
  }

  /** The upsert and by-filter writes for one request, each publishing its domain events once committed. */
  bulkWriterFor(request: Pick<CrudRequest, 'auth'>): PublishingBulkWriter {
    return new PublishingBulkWriter(this.bulk, this.events, request.auth, this.outbox);
  }

  entity(name: string): EntityModel {
    const entity = this.entities.get(name);
    if (!entity) throw new Error(`Entity "${name}" is not in the service model: regenerate from .svcrc.`);
    return entity;
  }
}
