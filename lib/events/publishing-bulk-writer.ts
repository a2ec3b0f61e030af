import type { AuthContext } from '../interfaces/auth-context.interface';
import type { ColumnModel } from '../schema/model';
import type { BulkWrites } from '../sql/bulk-writes';
import type { RootCondition } from '../sql/conditions';
import type { EntityPlan } from '../sql/entity-plan';
import type { FilterChange, FilterMatch, FilterWriteResult } from '../sql/filter-write.statement';
import type { UpsertedRow, UpsertResult } from '../sql/upsert.statement';
import type { WriteChange } from '../sql/write.executor';
import type { UpsertChecks } from '../sql/write-check';
import type { DomainEventAction } from './domain-event';
import type { DomainEventPublisher, NamedDomainEvent } from './domain-event-publisher';
import type { OutboxTransactions } from './outbox/outbox-transactions';

type Row = Record<string, unknown>;
type NamedEvent = NamedDomainEvent;
type Published<T> = { result: T; changes: { action: DomainEventAction; change: WriteChange }[] };

/**
 * The bulk writes of `BulkWrites` (upsert, by-filter update and delete), each followed by one
 * domain event per row once committed, as `PublishingWriter` does for the others. With the outbox
 * on, the write and its outbox rows share one transaction.
 */
export class PublishingBulkWriter {
  constructor(
    private readonly bulk: BulkWrites,
    private readonly publisher: DomainEventPublisher,
    private readonly auth: AuthContext | null,
    private readonly outbox: OutboxTransactions | null,
  ) {}

  /**
   * Upserts in one transaction; `accept` sees the result before it commits and throws to roll
   * every row back (a conflict with a row the caller may not update). One `<entity>.created` or
   * `<entity>.updated` per row, as it went.
   */
  async upsert(
    plan: EntityPlan,
    rows: readonly Row[],
    conflict: ColumnModel,
    conditions: readonly RootCondition[],
    accept: (result: UpsertResult) => asserts result is UpsertedRow[],
    checks?: UpsertChecks,
  ): Promise<UpsertedRow[]> {
    return this.write(plan, (bulk) =>
      bulk.transaction(async (inTransaction) => {
        const result = await inTransaction.upsert(plan, rows, conflict, conditions, this.publisher.enabled(plan.model), checks);
        accept(result);
        const changes = result.map(({ record, inserted, previous }) =>
          inserted ? ({ action: 'created', change: { record } } as const) : ({ action: 'updated', change: { record, previous } } as const),
        );
        return { result, changes };
      }),
    );
  }

  /**
   * A by-filter update or delete: `<entity>.updated` (with `previous`) or `<entity>.deleted` per
   * changed row; `action` says which, since a soft delete is an UPDATE.
   */
  async writeMatching(
    plan: EntityPlan,
    match: FilterMatch,
    change: FilterChange,
    limit: number,
    action: Extract<DomainEventAction, 'updated' | 'deleted'>,
  ): Promise<FilterWriteResult> {
    return this.write(plan, async (bulk) => {
      const result = await bulk.writeMatching(plan, match, change, limit);
      return { result, changes: result.changes.map((written) => ({ action, change: written })) };
    });
  }

  private async write<T>(plan: EntityPlan, work: (bulk: BulkWrites) => Promise<Published<T>>): Promise<T> {
    const events = (published: Published<T>): NamedEvent[] =>
      published.changes.flatMap(({ action, change }) => this.publisher.events(plan.model, action, [change], this.auth));
    if (this.outbox?.enabled(plan.model)) {
      const { published, events: named } = await this.outbox.runOn(async (executor) => {
        const published = await work(this.bulk.within(executor));
        return { published, events: events(published) };
      });
      this.publisher.emitAll(named);
      return published.result;
    }
    const published = await work(this.bulk);
    this.publisher.emitAll(events(published));
    return published.result;
  }
}
