import type { EntityPlan, EntityPlans } from '../sql/entity-plan';
import type { RootCondition } from '../sql/conditions';
import type { SqlExecutor } from '../sql/sql-executor';
import { type Replace, type WriteChange, WriteExecutor } from '../sql/write.executor';
import type { WriteCheck } from '../sql/write-check';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { DomainEventAction } from './domain-event';
import type { DomainEventPublisher } from './domain-event-publisher';
import type { OutboxTransactions } from './outbox/outbox-transactions';

type Row = Record<string, unknown>;

/**
 * Work that must commit with a tracked write, or not at all (revoking the sessions an authority change ends):
 * it runs in the write's transaction, on that transaction's executor, before any event is emitted.
 */
export type WithinWrite = (changes: readonly WriteChange[], executor: SqlExecutor) => Promise<void>;

/** Where a write opens the transaction it shares with `WithinWrite` work, when the outbox does not open one. */
export interface WriteTransactions {
  readonly executor: SqlExecutor;
  readonly plans: EntityPlans;
}

/**
 * The writes of `WriteExecutor`, each followed by its domain events once committed. For entities
 * without `events`, exactly the plain writes (no previous-row read). With the outbox on
 * (`EVENTS_URL`), a write and its outbox rows share one transaction. `CrudService` writes through
 * `runtime.writerFor(request)`; code of your own that writes with `runtime.writer` directly emits nothing.
 */
export class PublishingWriter {
  constructor(
    private readonly writer: WriteExecutor,
    private readonly publisher: DomainEventPublisher,
    private readonly auth: AuthContext | null,
    private readonly outbox: OutboxTransactions | null,
    private readonly transactions: WriteTransactions,
  ) {}

  /** One statement for all rows; one `<entity>.created` per row, in order. */
  async insert(plan: EntityPlan, rows: readonly Row[], check: WriteCheck | null = null): Promise<Row[]> {
    const changes = await this.write(plan, 'created', async (writer) =>
      (await writer.insert(plan, rows, undefined, check)).map((record): WriteChange => ({ record })),
    );
    return changes.map((change) => change.record);
  }

  /** `<entity>.updated` with `previous` (for PATCH and PUT alike). */
  async update(
    plan: EntityPlan,
    id: string | number,
    values: Row,
    conditions: readonly RootCondition[],
    replace: Replace,
    check: WriteCheck | null = null,
  ): Promise<Row | null> {
    if (!this.publisher.enabled(plan.model)) return this.writer.update(plan, id, values, conditions, replace, check);
    const [change] = await this.write(plan, 'updated', async (writer) =>
      single(await writer.updateTracked(plan, id, values, conditions, replace, check)),
    );
    return change?.record ?? null;
  }

  /** `update()` that also answers the row as it was before, whether or not the entity publishes events. */
  async updateTracked(
    plan: EntityPlan,
    id: string | number,
    values: Row,
    conditions: readonly RootCondition[],
    replace: Replace,
    within?: WithinWrite,
    check: WriteCheck | null = null,
  ): Promise<WriteChange | null> {
    const [change] = await this.write(
      plan,
      'updated',
      async (writer) => single(await writer.updateTracked(plan, id, values, conditions, replace, check)),
      within,
    );
    return change ?? null;
  }

  /** `<entity>.deleted`; `record` is the removed row (soft delete: with `deleted_at` set). */
  async delete(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<boolean> {
    if (!this.publisher.enabled(plan.model)) return this.writer.delete(plan, id, conditions);
    return (await this.deleteTracked(plan, id, conditions)) !== null;
  }

  /** `delete()` that answers the removed row, whether or not the entity publishes events. */
  async deleteTracked(
    plan: EntityPlan,
    id: string | number,
    conditions: readonly RootCondition[],
    within?: WithinWrite,
  ): Promise<WriteChange | null> {
    const [change] = await this.write(plan, 'deleted', async (writer) => single(await writer.deleteTracked(plan, id, conditions)), within);
    return change ?? null;
  }

  /** `<entity>.recovered` with `previous` (the soft-deleted row). */
  async recover(
    plan: EntityPlan,
    id: string | number,
    conditions: readonly RootCondition[],
    check: WriteCheck | null = null,
  ): Promise<Row | null> {
    if (!this.publisher.enabled(plan.model)) return this.writer.recover(plan, id, conditions, check);
    const [change] = await this.write(plan, 'recovered', async (writer) =>
      single(await writer.recoverTracked(plan, id, conditions, check)),
    );
    return change?.record ?? null;
  }

  /**
   * Runs `write` (in the outbox's transaction when it is on for the entity; in a transaction of its own when
   * `within` work must share it), then emits its events in process.
   */
  private async write(
    plan: EntityPlan,
    action: DomainEventAction,
    write: (writer: WriteExecutor) => Promise<WriteChange[]>,
    within?: WithinWrite,
  ): Promise<WriteChange[]> {
    if (this.outbox?.enabled(plan.model)) {
      const { changes, events } = await this.outbox.run(async (writer, executor) => {
        const changes = await write(writer);
        if (within) await within(changes, executor);
        return { changes, events: this.publisher.events(plan.model, action, changes, this.auth) };
      });
      this.publisher.emitAll(events);
      return changes;
    }
    const changes = within ? await this.writeWithin(write, within) : await write(this.writer);
    this.publisher.publish(plan.model, action, changes, this.auth);
    return changes;
  }

  private async writeWithin(write: (writer: WriteExecutor) => Promise<WriteChange[]>, within: WithinWrite): Promise<WriteChange[]> {
    const { executor, plans } = this.transactions;
    return executor.transaction(async (connection) => {
      const bound = executor.within(connection);
      const changes = await write(new WriteExecutor(bound, plans));
      await within(changes, bound);
      return changes;
    });
  }
}

function single(change: WriteChange | null): WriteChange[] {
  return change ? [change] : [];
}
