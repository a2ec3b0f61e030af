import type { EntityPlans } from '../../sql/entity-plan';
import type { SqlExecutor } from '../../sql/sql-executor';
import { WriteExecutor } from '../../sql/write.executor';
import type { EntityModel } from '../../schema/model';
import type { NamedDomainEvent } from '../domain-event-publisher';
import type { SvcEventOutbox } from './event-outbox';

type NamedEvent = NamedDomainEvent;

/**
 * Runs a CRUD write and the insert of its outbox rows in one transaction: the change and its
 * events commit together or not at all.
 */
export class OutboxTransactions {
  constructor(
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
    private readonly outbox: SvcEventOutbox,
  ) {}

  enabled(entity: EntityModel): boolean {
    return this.outbox.enabled(entity);
  }

  /**
   * `work` gets a `WriteExecutor` whose statements run in the transaction (and the transaction's `SqlExecutor`,
   * for statements of its own); the events it returns are appended to the outbox.
   */
  async run<T extends { events: readonly NamedEvent[] }>(work: (writer: WriteExecutor, executor: SqlExecutor) => Promise<T>): Promise<T> {
    return this.runOn((executor) => work(new WriteExecutor(executor, this.plans), executor));
  }

  /** `run()` for work that takes the transaction's `SqlExecutor` itself (the bulk writes). */
  async runOn<T extends { events: readonly NamedEvent[] }>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    const { result, appended } = await this.executor.transaction(async (manager) => {
      const result = await work(this.executor.within(manager));
      return { result, appended: await this.outbox.append(manager, result.events) };
    });
    this.outbox.committed(appended);
    return result;
  }
}
