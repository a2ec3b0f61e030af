import type { ColumnModel } from '../schema/model';
import type { RootCondition } from './conditions';
import type { EntityPlan, EntityPlans } from './entity-plan';
import { type FilterChange, type FilterMatch, type FilterWriteResult, writeMatching } from './filter-write.statement';
import type { ReadExecutor } from './read.executor';
import type { SqlExecutor } from './sql-executor';
import { type UpsertResult, upsertRows } from './upsert.statement';
import type { UpsertChecks } from './write-check';

type Record_ = Record<string, unknown>;

/**
 * The writes of many rows at once besides the bulk insert: upsert by a unique column
 * (`POST /<entities>/bulk?onConflict=`) and the by-filter update and delete. Their SQL lives in
 * `upsert.statement.ts` and `filter-write.statement.ts`; this binds it to an executor.
 */
export class BulkWrites {
  constructor(
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
    private readonly reader: ReadExecutor,
  ) {}

  /** The same writes, on `executor` (a view bound to an open transaction). */
  within(executor: SqlExecutor): BulkWrites {
    return new BulkWrites(executor, this.plans, this.reader);
  }

  /** Runs `work` in one transaction (joining the one this executor is bound to, if any). */
  transaction<T>(work: (bulk: BulkWrites) => Promise<T>): Promise<T> {
    return this.executor.transaction((manager) => work(this.within(this.executor.within(manager))));
  }

  /** See `upsertRows()`: run it inside `transaction()` when `rows` may give different columns. */
  upsert(
    plan: EntityPlan,
    rows: readonly Record_[],
    conflict: ColumnModel,
    conditions: readonly RootCondition[],
    trackPrevious: boolean,
    checks?: UpsertChecks,
  ): Promise<UpsertResult> {
    return upsertRows(this.executor, this.plans, plan, rows, conflict, conditions, trackPrevious, checks);
  }

  /** See `writeMatching()`. */
  writeMatching(plan: EntityPlan, match: FilterMatch, change: FilterChange, limit: number): Promise<FilterWriteResult> {
    return writeMatching(this.executor, this.plans, this.reader, plan, match, change, limit);
  }
}
