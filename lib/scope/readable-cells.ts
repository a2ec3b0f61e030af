/**
 * Field rules of `read` (`permissions.<role>.read.fields`) for one caller, as the SQL layer asks for
 * them (`CellAccess`): a cell is readable where some rule that grants its field also reaches its row.
 * A field every applicable rule grants is readable wherever the row is (null: the statement reads the
 * column as it is), so callers without field rules get exactly the statements they got before.
 */
import type { CrudRequest } from '../interfaces/crud-request.interface';
import { QueryError, quote } from '../query/query.error';
import type { ParsedQuery, WhereNode } from '../query/query.types';
import type { EntityModel, RelationModel } from '../schema/model';
import { ALL_CELLS, type CellAccess, NEVER } from '../sql/cell-access';
import type { SqlContext } from '../sql/sql-context';
import { buildWhereSql } from '../sql/where.builder';
import type { CallerRule, PermissionRules } from './permission-rules';

/** For each field of an entity that not every rule grants, the indexes of the rules that do. */
interface EntityCells {
  readonly rules: readonly CallerRule[];
  readonly grantedBy: ReadonlyMap<string, readonly number[]>;
}

/** The readable cells of one caller's requests, each entity's rules compiled once. */
export class ReadableCells {
  private readonly byEntity = new Map<string, EntityCells | null>();
  /** Conditions already written into a statement, by alias and rules: fields granted by the same rules share one. */
  private readonly written = new WeakMap<SqlContext, Map<string, string | null>>();

  constructor(
    private readonly permissions: PermissionRules,
    private readonly entities: ReadonlyMap<string, EntityModel>,
    private readonly request: CrudRequest,
  ) {}

  /** The `CellAccess` of the caller: `ALL_CELLS` when no field rule of theirs restricts any entity of the model. */
  access(): CellAccess {
    if (![...this.entities.values()].some((entity) => this.cellsOf(entity) !== null)) return ALL_CELLS;
    return (target, field, sql) =>
      this.readableSql(target.plan.model, field, target.alias, sql, (where) => buildWhereSql(where, target, () => undefined, sql));
  }

  /** Whether the caller may read `field` of `entity` on at least some rows. */
  readableAnywhere(entity: EntityModel, field: string): boolean {
    const cells = this.cellsOf(entity);
    const granted = cells?.grantedBy.get(field);
    return granted === undefined || granted.length > 0;
  }

  /**
   * 400, as for an unknown field, when the query names a field (in `fields`, a join's fields, a filter,
   * `or`, `s` or `sort`) that no rule of the caller lets them read on any row.
   */
  assertNamedFieldsReadable(query: ParsedQuery, entity: EntityModel): void {
    // The wording of the validator's own "unknown field" for each parameter.
    const check = (param: string, path: string, context?: string): void => {
      const parts = path.split('.');
      const name = parts.pop()!;
      let target: EntityModel | undefined = entity;
      for (const relation of parts) {
        const model: RelationModel | undefined = target?.relations.find((candidate) => candidate.name === relation);
        target = model ? this.entities.get(model.target) : undefined;
      }
      if (target === undefined || this.readableAnywhere(target, name)) return;
      const detail = context ?? (parts.length === 0 ? '' : ` (in ${quote(path)})`);
      throw new QueryError(param, `unknown field ${quote(name)} on ${target.name}${detail}`);
    };
    for (const name of query.fields ?? []) check('fields', name);
    for (const join of query.join)
      for (const name of join.fields ?? []) check('join', `${join.relation}.${name}`, ` (in join=${join.relation})`);
    for (const sort of query.sort) check('sort', sort.field);
    const walk = (node: WhereNode | null): void => {
      if (node === null) return;
      if (node.kind === 'condition') check(node.source, node.field);
      else if (node.kind === 'not') walk(node.child);
      else node.children.forEach(walk);
    };
    walk(query.where);
  }

  private readableSql(
    entity: EntityModel,
    field: string,
    alias: string,
    sql: SqlContext,
    build: (where: NonNullable<CallerRule['where']>) => string,
  ): string | null {
    const cells = this.cellsOf(entity);
    const granted = cells?.grantedBy.get(field);
    if (cells === null || granted === undefined) return null;
    if (granted.length === 0) return NEVER;
    let written = this.written.get(sql);
    if (written === undefined) {
      written = new Map();
      this.written.set(sql, written);
    }
    const key = `${alias}\u0000${granted.join(',')}`;
    if (written.has(key)) return written.get(key)!;
    const wheres = granted.map((index) => cells.rules[index].where!);
    const condition = `(${wheres.map(build).join(' OR ')})`;
    written.set(key, condition);
    return condition;
  }

  /** Null when the caller's field rules restrict no field of the entity (or none governs it). */
  private cellsOf(entity: EntityModel): EntityCells | null {
    if (this.byEntity.has(entity.name)) return this.byEntity.get(entity.name)!;
    const cells = this.compile(entity);
    this.byEntity.set(entity.name, cells);
    return cells;
  }

  private compile(entity: EntityModel): EntityCells | null {
    // Most models have no field rule: decided without compiling any condition.
    const declared = Object.values(entity.permissions ?? {}).some(
      (grants) => grants.read?.fields !== null && grants.read?.fields !== undefined,
    );
    if (!declared) return null;
    const rules = this.permissions.callerRules(entity, this.request, 'read');
    if (rules === null || rules.length === 0) return null;
    const grantedBy = new Map<string, number[]>();
    for (const column of entity.columns) {
      if (column.hidden || column.kind === 'primary') continue;
      const granting = rules.flatMap((rule, index) => (rule.fields === null || rule.fields.has(column.name) ? [index] : []));
      // Every rule grants it, or one that reaches every row: readable wherever the row is.
      if (granting.length === rules.length || granting.some((index) => rules[index].where === null)) continue;
      grantedBy.set(column.name, granting);
    }
    return grantedBy.size === 0 ? null : { rules, grantedBy };
  }
}
