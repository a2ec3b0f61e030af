import type { DataSource, EntityManager } from 'typeorm';
import type { EntityPlans } from '../../crud/entity-plan';
import { WriteExecutor } from '../../crud/write.executor';
import type { EntityModel } from '../../schema/model';
import type { DomainEvent } from '../domain-event';
import type { SvcEventOutbox } from './event-outbox';

type NamedEvent = { name: string; event: DomainEvent };

/**
 * Runs a CRUD write and the insert of its outbox rows in one transaction: the change and its
 * events commit together or not at all.
 */
export class OutboxTransactions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plans: EntityPlans,
    private readonly outbox: SvcEventOutbox,
  ) {}

  enabled(entity: EntityModel): boolean {
    return this.outbox.enabled(entity);
  }

  /** `work` gets a `WriteExecutor` whose statements run in the transaction; the events it returns are appended to the outbox. */
  async run<T extends { events: readonly NamedEvent[] }>(work: (writer: WriteExecutor) => Promise<T>): Promise<T> {
    const result = await this.dataSource.transaction(async (manager) => {
      const result = await work(new WriteExecutor(boundTo(this.dataSource, manager), this.plans));
      await this.outbox.append(manager, result.events);
      return result;
    });
    if (result.events.length > 0) this.outbox.committed();
    return result;
  }
}

/**
 * The data source as `WriteExecutor` uses it (query builders, `manager`, `transaction`), with every
 * statement on the transaction's connection. A view, so the executor itself needs no transaction parameter.
 */
function boundTo(dataSource: DataSource, manager: EntityManager): DataSource {
  return Object.create(dataSource, {
    manager: { value: manager },
    createQueryBuilder: { value: () => dataSource.createQueryBuilder(manager.queryRunner) },
    transaction: { value: (work: (manager: EntityManager) => Promise<unknown>) => work(manager) },
  }) as DataSource;
}
