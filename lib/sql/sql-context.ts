import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { EntityPlan, EntityPlans } from './entity-plan';
import type { Statement } from './sql-executor';

/**
 * How values are written into the SQL text: `$1, $2...` for statements run as they are
 * (`Statement`), or `:p0, :p1...` for statements that go through a TypeORM query builder.
 */
export type PlaceholderStyle = 'positional' | 'named';

/**
 * Collects bound parameters and fresh aliases while one statement is built.
 * Values only ever reach SQL through `param()`.
 */
export class SqlContext {
  private readonly parameters: unknown[] = [];
  private aliasCount = 0;

  constructor(
    readonly plans: EntityPlans,
    readonly escape: (identifier: string) => string,
    private readonly style: PlaceholderStyle = 'named',
  ) {}

  /** Registers a value and returns its placeholder (`$1`, or `:p0` in the named style). */
  param(value: unknown): string {
    this.parameters.push(value);
    return this.style === 'positional' ? `$${this.parameters.length}` : `:p${this.parameters.length - 1}`;
  }

  /** A fresh escaped alias for a sub-query table. */
  alias(prefix = 's'): string {
    return this.escape(`${prefix}${this.aliasCount++}`);
  }

  /** The statement for SQL text built with this context (positional style). */
  statement(text: string): Statement {
    return { text, values: this.parameters };
  }

  applyTo<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return qb.setParameters(this.params);
  }

  /** The values by placeholder name (named style). */
  get params(): Readonly<Record<string, unknown>> {
    return Object.fromEntries(this.parameters.map((value, index) => [`p${index}`, value]));
  }
}

/** How a query refers to the entity reached by a relation path: its alias and plan. */
export interface AliasedEntity {
  readonly alias: string;
  readonly plan: EntityPlan;
}
