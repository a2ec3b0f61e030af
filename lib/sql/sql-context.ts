import type { EntityPlan, EntityPlans } from './entity-plan';
import type { Statement } from './statement';

/**
 * Collects bound parameters (`$1, $2...`) and fresh aliases while one statement is built.
 * Values only ever reach SQL through `param()`.
 */
export class SqlContext {
  private readonly parameters: unknown[] = [];
  private aliasCount = 0;

  constructor(
    readonly plans: EntityPlans,
    readonly escape: (identifier: string) => string,
  ) {}

  /** Registers a value and returns its placeholder (`$1`, `$2`...). */
  param(value: unknown): string {
    this.parameters.push(value);
    return `$${this.parameters.length}`;
  }

  /** A fresh escaped alias for a sub-query table. */
  alias(prefix = 's'): string {
    return this.escape(`${prefix}${this.aliasCount++}`);
  }

  /** The statement for SQL text built with this context. */
  statement(text: string, options: Pick<Statement, 'oneOff' | 'replica'> = {}): Statement {
    return { text, values: this.parameters, ...options };
  }
}

/** How a query refers to the entity reached by a relation path: its alias and plan. */
export interface AliasedEntity {
  readonly alias: string;
  readonly plan: EntityPlan;
}
