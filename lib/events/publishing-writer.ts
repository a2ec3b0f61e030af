import type { EntityPlan } from '../sql/entity-plan';
import type { RootCondition } from '../sql/conditions';
import type { Replace, WriteExecutor } from '../sql/write.executor';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { DomainEventPublisher } from './domain-event-publisher';

type Row = Record<string, unknown>;

/**
 * The writes of `WriteExecutor`, each followed by its domain events once the statement has
 * returned. For entities without `events`, exactly the plain writes (no previous-row read).
 * `CrudService` writes through `runtime.writerFor(request)`; code of your own that writes with
 * `runtime.writer` directly emits nothing.
 */
export class PublishingWriter {
  constructor(
    private readonly writer: WriteExecutor,
    private readonly publisher: DomainEventPublisher,
    private readonly auth: AuthContext | null,
  ) {}

  /** One statement for all rows; one `<entity>.created` per row, in order. */
  async insert(plan: EntityPlan, rows: readonly Row[]): Promise<Row[]> {
    const records = await this.writer.insert(plan, rows);
    this.publisher.publish(
      plan.model,
      'created',
      records.map((record) => ({ record })),
      this.auth,
    );
    return records;
  }

  /** `<entity>.updated` with `previous` (for PATCH and PUT alike). */
  async update(
    plan: EntityPlan,
    id: string | number,
    values: Row,
    conditions: readonly RootCondition[],
    replace: Replace,
  ): Promise<Row | null> {
    if (!this.publisher.enabled(plan.model)) return this.writer.update(plan, id, values, conditions, replace);
    const change = await this.writer.updateTracked(plan, id, values, conditions, replace);
    if (change) this.publisher.publish(plan.model, 'updated', [change], this.auth);
    return change?.record ?? null;
  }

  /** `<entity>.deleted`; `record` is the removed row (soft delete: with `deleted_at` set). */
  async delete(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<boolean> {
    if (!this.publisher.enabled(plan.model)) return this.writer.delete(plan, id, conditions);
    const change = await this.writer.deleteTracked(plan, id, conditions);
    if (change) this.publisher.publish(plan.model, 'deleted', [change], this.auth);
    return change !== null;
  }

  /** `<entity>.recovered` with `previous` (the soft-deleted row). */
  async recover(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<Row | null> {
    if (!this.publisher.enabled(plan.model)) return this.writer.recover(plan, id, conditions);
    const change = await this.writer.recoverTracked(plan, id, conditions);
    if (change) this.publisher.publish(plan.model, 'recovered', [change], this.auth);
    return change?.record ?? null;
  }
}
