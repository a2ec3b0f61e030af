import type { AuthContext } from '../interfaces/auth-context.interface';
import type { EntityModel } from '../schema/model';
import { toCamelCase } from '../schema/naming';

/** What happened to a record. */
export type DomainEventAction = 'created' | 'updated' | 'deleted' | 'recovered';

export const DOMAIN_EVENT_ACTIONS: readonly DomainEventAction[] = ['created', 'updated', 'deleted', 'recovered'];

/**
 * The payload of every domain event, emitted once per written record after the
 * statement that wrote it has committed.
 *
 * ```ts
 * @OnEvent(domainEventName('Loan', 'created'))
 * onLoan(event: DomainEvent<Loan>) { ... }
 * ```
 */
export interface DomainEvent<T extends object = Record<string, unknown>> {
  /** Entity name as declared in `.svcrc` (`LoanItem`). */
  readonly entity: string;
  readonly action: DomainEventAction;
  /** Primary key of the record. */
  readonly id: string | number;
  /**
   * The record as the statement left it (its visible columns, as the API returns them).
   * For a hard delete, the removed row; for a soft delete, the row with `deleted_at` set.
   */
  readonly record: Partial<T>;
  /** The row just before the statement; absent for `created`. Read in the same statement as the write. */
  readonly previous?: Partial<T>;
  /** The caller whose request made the change; null for system work and open services. */
  readonly auth: AuthContext | null;
  readonly occurredAt: Date;
}

/**
 * The event name: camelCase entity name, a dot, the action (`loanItem.created`).
 * Accepts the entity name as declared (`LoanItem`) or its model.
 */
export function domainEventName(entity: string | Pick<EntityModel, 'propertyName'>, action: DomainEventAction): string {
  const name = typeof entity === 'string' ? toCamelCase(entity) : entity.propertyName;
  return `${name}.${action}`;
}
