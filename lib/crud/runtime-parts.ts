import type { SvcIdentityService } from '../auth/identity/identity.service';
import type { DomainEventPublisher } from '../events/domain-event-publisher';
import type { SvcEventOutbox } from '../events/outbox/event-outbox';
import type { SvcChangeFeed } from '../realtime/change-feed';
import { ViewMatcher } from '../realtime/view-matcher';
import { OutboxTransactions } from '../events/outbox/outbox-transactions';
import { PublishingWriter } from '../events/publishing-writer';
import { PublishingBulkWriter } from '../events/publishing-bulk-writer';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { CursorCodec } from '../query/cursor-codec';
import type { EntityModel, ServiceModel } from '../schema/model';
import { MembershipConsent } from '../scope/membership-consent';
import type { ScopeEnforcer } from '../scope/scope-enforcer';
import type { EntityPlans } from '../sql/entity-plan';
import type { ReadExecutor } from '../sql/read.executor';
import type { SqlExecutor } from '../sql/sql-executor';
import { WriteExecutor } from '../sql/write.executor';
import { ALL_CELLS, type CellAccess } from '../sql/cell-access';
import { BulkWrites } from '../sql/bulk-writes';

/** The service model and the shared query machinery `CrudService` works with; internal to the runtime. */
export class RuntimeParts {
  readonly entities: ReadonlyMap<string, EntityModel>;
  /** Writes of entities with `events` (with `EVENTS_URL`) or `realtime` commit together with their outbox rows. */
  private readonly outbox: OutboxTransactions | null;
  private readonly bulk: BulkWrites;
  /** Whose user a membership write may name: see `MembershipConsent`. */
  readonly memberships: MembershipConsent;
  /** Whether a record was in a caller's view of a list, judged in memory (the change feeds' before-state). */
  readonly views: ViewMatcher;

  constructor(
    readonly model: ServiceModel,
    readonly plans: EntityPlans,
    readonly reader: ReadExecutor,
    private readonly writer: WriteExecutor,
    /** Domain events of entities with `events` on (`<entity>.created`...), after each write commits. */
    private readonly events: DomainEventPublisher,
    /** Tenant scope (`scopeBy`) of every CRUD statement. */
    readonly scope: ScopeEnforcer,
    /** Users, memberships and sessions of `auth`. */
    readonly identity: SvcIdentityService,
    private readonly executor: SqlExecutor,
    /** Signs and checks the `nextCursor` of lists (`SVC_CURSOR_SECRET`, see `resolveCursorKey()`). */
    readonly cursors: CursorCodec,
    private readonly eventOutbox?: SvcEventOutbox,
    /** The change feeds of `realtime` entities; null when the module was built without it. */
    readonly changes: SvcChangeFeed | null = null,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.outbox = eventOutbox?.inUse ? new OutboxTransactions(executor, plans, eventOutbox) : null;
    this.bulk = new BulkWrites(executor, plans, reader);
    this.memberships = new MembershipConsent(model, plans, executor);
    this.views = new ViewMatcher(model);
  }

  /**
   * `writer` for one request's writes: each publishes its domain events once committed. With `cells`
   * (the caller's field rules), their RETURNING also says which cells the caller may read.
   */
  writerFor(request: Pick<CrudRequest, 'auth'>, cells: CellAccess = ALL_CELLS): PublishingWriter {
    if (cells === ALL_CELLS) {
      return new PublishingWriter(this.writer, this.events, request.auth, this.outbox, { executor: this.executor, plans: this.plans });
    }
    const executor = this.executor.readingAs(cells);
    return new PublishingWriter(new WriteExecutor(executor, this.plans), this.events, request.auth, this.outboxOn(executor), {
      executor,
      plans: this.plans,
    });
  }

  /** The upsert and by-filter writes for one request, each publishing its domain events once committed. */
  bulkWriterFor(request: Pick<CrudRequest, 'auth'>, cells: CellAccess = ALL_CELLS): PublishingBulkWriter {
    if (cells === ALL_CELLS) return new PublishingBulkWriter(this.bulk, this.events, request.auth, this.outbox);
    const executor = this.executor.readingAs(cells);
    return new PublishingBulkWriter(this.bulk.within(executor), this.events, request.auth, this.outboxOn(executor));
  }

  private outboxOn(executor: SqlExecutor): OutboxTransactions | null {
    return this.outbox && this.eventOutbox ? new OutboxTransactions(executor, this.plans, this.eventOutbox) : null;
  }

  entity(name: string): EntityModel {
    const entity = this.entities.get(name);
    if (!entity) throw new Error(`Entity "${name}" is not in the service model: regenerate from .svcrc.`);
    return entity;
  }
}
