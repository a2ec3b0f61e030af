import type { RelatedCondition, RootCondition } from '../sql/conditions';
import type { EntityPlan, EntityPlans } from '../sql/entity-plan';
import { fitsInt4, liveRowSql } from '../sql/predicates';
import { type AliasedEntity, SqlContext } from '../sql/sql-context';
import type { SqlExecutor } from '../sql/sql-executor';
import { anyRow } from '../sql/statements/entity-rows';
import { ScopeViolationException } from '../exceptions/scope.exceptions';
import { coerceValue } from '../query/coerce-value';
import type { CrudOperation, EntityModel, RelationModel, ServiceModel } from '../schema/model';
import {
  contextValue,
  decideScope,
  pathSql,
  scopeColumn,
  type ScopeDecision,
  type ScopeRequest,
  scopeSql,
  type ScopeValue,
  typedScopeValue,
} from './scope-rules';

type Values = Record<string, unknown>;
type Id = string | number;

/**
 * Enforces `scopeBy` for `CrudService`: conditions on every statement, checks of the values a
 * write would store, and the 403-or-404 answer of a by-id miss. It is the enforcement point:
 * it runs whether or not `ScopeGuard` is enabled.
 */
export class ScopeEnforcer {
  private readonly entities: ReadonlyMap<string, EntityModel>;

  constructor(
    model: ServiceModel,
    private readonly plans: EntityPlans,
    private readonly executor: SqlExecutor,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
  }

  decide(entity: EntityModel, request: ScopeRequest, operation: CrudOperation): ScopeDecision {
    return decideScope(entity, request, operation, this.entities);
  }

  /** Conditions the root rows of `operation` must meet; 403 when the context lacks a scope value. */
  rootConditions(entity: EntityModel, request: ScopeRequest, operation: CrudOperation): RootCondition[] {
    const decision = this.decide(entity, request, operation);
    if (decision.kind === 'open') return [];
    if (decision.kind === 'missing') throw missingContext(entity, decision.key);
    const { values } = decision;
    return [(root, sql) => scopeSql(values, root, sql)];
  }

  /**
   * Conditions on rows of other entities a read reaches (joins, relation filters, to-many loads):
   * each scoped entity keeps its own scope, so a join never shows another tenant's rows.
   */
  related(request: ScopeRequest, operation: CrudOperation): RelatedCondition {
    return (target, sql) => {
      const decision = this.decide(target.plan.model, request, operation);
      if (decision.kind === 'open') return null;
      if (decision.kind === 'missing') return 'FALSE';
      return scopeSql(decision.values, target, sql);
    };
  }

  /**
   * Makes `values` safe to write, in place: scope fields injected (`injectOnCreate`) or checked,
   * dotted paths checked through the referenced parent, and every foreign key to a scoped
   * entity checked against that entity's scope. `replace` (PUT, create) means omitted
   * columns are written too, so they must be in scope as well.
   */
  async prepareWrite(
    entity: EntityModel,
    values: Values,
    request: ScopeRequest,
    operation: 'create' | 'update',
    replace: boolean,
  ): Promise<void> {
    // A new row of an entity scoped by its own id has no id yet: who may create one is not a scope question.
    const ownKeyOnly = entity.scope?.paths.every(
      (path) => path.relations.length === 0 && path.field === this.plan(entity.name).primaryKey.name,
    );
    const open = request.skipScope || (operation === 'create' && ownKeyOnly === true);
    const decision = open ? ({ kind: 'open' } as const) : this.decide(entity, request, operation);
    if (decision.kind === 'open') {
      if (operation === 'create') this.defaultScopeFields(entity, values, request);
      if (request.skipScope) return;
    }
    const checkedKeys = new Set<string>();
    if (decision.kind === 'missing') throw missingContext(entity, decision.key);
    if (decision.kind === 'enforced') {
      const inject = entity.scope!.injectOnCreate;
      for (const entry of decision.values) {
        // Scoped by its own id (the organization table): the id is the row's, never a body value.
        if (isOwnKey(entity, entry)) continue;
        if (entry.path.relations.length === 0) {
          this.directField(entry, values, inject, replace);
        } else {
          const relation = this.plan(entity.name).relation(entry.path.relations[0]);
          checkedKeys.add(relation.foreignKey);
          await this.dottedPath(entity, relation, entry, values, replace);
        }
      }
    }
    // A bypass role skips every scope check of the entity, its own scope fields included: the
    // organization such a field names is not checked against the caller's organization either.
    if (decision.kind === 'open') {
      for (const path of entity.scope?.paths ?? []) if (path.relations.length === 0) checkedKeys.add(path.field);
    }
    for (const relation of entity.relations) {
      if (relation.kind !== 'many-to-one' || checkedKeys.has(relation.foreignKey)) continue;
      const reference = values[relation.foreignKey];
      if (reference === undefined || reference === null) continue;
      await this.reference(relation, reference, request);
    }
  }

  /**
   * Whether a live row `id` exists outside the caller's scope: a by-id miss then answers 403
   * (the row exists, not yours) rather than 404 (no such row).
   */
  async outsideScope(entity: EntityModel, id: Id, request: ScopeRequest, operation: CrudOperation): Promise<boolean> {
    const decision = this.decide(entity, request, operation);
    if (decision.kind !== 'enforced') return false;
    const plan = this.plan(entity.name);
    return this.any(
      plan,
      false,
      (root, sql) =>
        `${root.alias}.${plan.primaryKeyColumn} = ${sql.param(id)} AND NOT COALESCE((${scopeSql(decision.values, root, sql)}), FALSE)`,
    );
  }

  /**
   * Where scope is not checked (`skipScope`, a bypass role, an operation outside `enforceOn`),
   * `injectOnCreate` still fills a direct scope field the body leaves out, from the context when
   * it has a usable value; a value in the body is kept.
   */
  private defaultScopeFields(entity: EntityModel, values: Values, request: ScopeRequest): void {
    const scope = entity.scope;
    if (!scope?.injectOnCreate) return;
    for (const path of scope.paths) {
      if (path.relations.length > 0 || values[path.field] !== undefined || path.field === this.plan(entity.name).primaryKey.name) continue;
      const raw = contextValue(request.auth, path.contextKey);
      const typed = raw === undefined ? null : typedScopeValue(scopeColumn(path, this.entities), raw);
      if (typed !== null) values[path.field] = typed;
    }
  }

  private directField(entry: ScopeValue, values: Values, inject: boolean, replace: boolean): void {
    const field = entry.path.field;
    if (inject) {
      if (entry.value === null) throw new ScopeViolationException(`The request context has no usable ${entry.path.contextKey}`);
      // Create and PUT always write the column; PATCH only when the body names it.
      if (replace || values[field] !== undefined) values[field] = entry.value;
      return;
    }
    if (!replace && values[field] === undefined) return;
    const given = values[field];
    const typed = given === null || given === undefined ? null : typedScopeValue(entry.column, given);
    if (typed === null || entry.value === null || typed !== entry.value) {
      throw new ScopeViolationException(`${field} is outside your scope`);
    }
  }

  private async dottedPath(
    entity: EntityModel,
    relation: RelationModel,
    entry: ScopeValue,
    values: Values,
    replace: boolean,
  ): Promise<void> {
    const key = relation.foreignKey;
    if (!replace && values[key] === undefined) return;
    const reference = values[key];
    const target = this.plan(relation.target);
    const id = reference === null || reference === undefined ? null : this.typedId(target, reference);
    const rest = entry.path.relations.slice(1);
    const found =
      id !== null &&
      (await this.any(
        target,
        true,
        (root, sql) =>
          `${root.alias}.${target.primaryKeyColumn} = ${sql.param(id)} AND ${pathSql(root, rest, entry.path.field, entry.value, sql)}`,
      ));
    if (!found) {
      throw new ScopeViolationException(
        `${key} must reference a ${relation.target} in your scope (${entity.name} is scoped by ${entry.path.path})`,
      );
    }
  }

  private async reference(relation: RelationModel, reference: unknown, request: ScopeRequest): Promise<void> {
    const targetModel = this.plan(relation.target).model;
    // Pointing at a row is reading it: the target's `get` rule decides.
    const decision = this.decide(targetModel, request, 'get');
    if (decision.kind === 'open') return;
    if (decision.kind === 'missing') throw missingContext(targetModel, decision.key);
    const target = this.plan(relation.target);
    const id = this.typedId(target, reference);
    const found =
      id !== null &&
      (await this.any(
        target,
        true,
        (root, sql) => `${root.alias}.${target.primaryKeyColumn} = ${sql.param(id)} AND ${scopeSql(decision.values, root, sql)}`,
      ));
    if (!found) throw new ScopeViolationException(`${relation.foreignKey} must reference a ${relation.target} in your scope`);
  }

  private typedId(plan: EntityPlan, raw: unknown): string | number | null {
    if (typeof raw !== 'string' && typeof raw !== 'number') return null;
    const coerced = coerceValue(plan.primaryKey, String(raw));
    if (!coerced.ok) return null;
    const value = coerced.value as string | number;
    return typeof value === 'number' && !fitsInt4(value) ? null : value;
  }

  private plan(entityName: string): EntityPlan {
    return this.plans.get(entityName);
  }

  /** Whether any row of `plan` satisfies `where` (soft-deleted rows included with `withDeleted`). */
  private async any(plan: EntityPlan, withDeleted: boolean, where: (root: AliasedEntity, sql: SqlContext) => string): Promise<boolean> {
    const sql = new SqlContext(this.plans, (name) => this.executor.escape(name));
    const root: AliasedEntity = { alias: sql.escape('t0'), plan };
    const conditions = [where(root, sql)];
    const live = withDeleted ? null : liveRowSql(root);
    if (live !== null) conditions.push(live);
    return (await this.executor.rows(anyRow(sql, root, conditions))).length > 0;
  }
}

export function missingContext(entity: EntityModel, key: string): ScopeViolationException {
  return new ScopeViolationException(`${entity.name} is tenant-scoped: the request has no ${key} context`);
}

/** Whether a scope entry compares the entity's own primary key (`scopeBy: "id"`). */
function isOwnKey(entity: EntityModel, entry: ScopeValue): boolean {
  return entry.path.relations.length === 0 && entry.column.kind === 'primary' && entry.path.fieldEntity === entity.name;
}
