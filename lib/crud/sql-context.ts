import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { EntityPlan, EntityPlans } from './entity-plan';

/**
 * Collects bound parameters and fresh aliases while one statement is built.
 * Values only ever reach SQL through `param()`.
 */
export class SqlContext {
  private readonly parameters: Record<string, unknown> = {};
  private parameterCount = 0;
  private aliasCount = 0;

  constructor(
    readonly plans: EntityPlans,
    readonly escape: (identifier: string) => string,
  ) {}

  /** Registers a value and returns its placeholder (`:p0`). */
  param(value: unknown): string {
    const name = `p${this.parameterCount++}`;
    this.parameters[name] = value;
    return `:${name}`;
  }

  /** A fresh escaped alias for a sub-query table. */
  alias(prefix = 's'): string {
    return this.escape(`${prefix}${this.aliasCount++}`);
  }

  applyTo<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return qb.setParameters(this.parameters);
  }

  get params(): Readonly<Record<string, unknown>> {
    return this.parameters;
  }
}

/** How a query refers to the entity reached by a relation path: its alias and plan. */
export interface AliasedEntity {
  readonly alias: string;
  readonly plan: EntityPlan;
}
