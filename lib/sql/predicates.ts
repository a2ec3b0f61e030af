/**
 * SQL rules shared by every statement builder, each written once: live rows, relation links and
 * EXISTS chains, and which keys can exist at all.
 */
import { INT4_MAX } from '../schema/check-fields';
import type { ColumnModel, RelationModel } from '../schema/model';
import { ALL_CELLS, type CellAccess, onReadableCell, readableLinkSql } from './cell-access';
import type { AliasedEntity, SqlContext } from './sql-context';

/** Largest value of a PostgreSQL `integer` (int4); larger integer keys cannot exist. */
export { INT4_MAX };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in its text form (any case). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** Whether `value` fits a PostgreSQL `integer`. */
export function fitsInt4(value: number): boolean {
  return Math.abs(value) <= INT4_MAX;
}

/**
 * A key given as text, as its column's type: an integer within int4, a lower-case UUID, or the
 * text itself for other types; null when no row can have it (so no query needs to run).
 */
export function possibleKey(column: ColumnModel, value: string): string | number | null {
  if (column.type === 'integer') {
    if (!/^-?\d{1,10}$/.test(value)) return null;
    const n = Number(value);
    return fitsInt4(n) ? n : null;
  }
  if (column.type === 'uuid') return isUuid(value) ? value.toLowerCase() : null;
  return value;
}

/** Which rows of a soft-deletable entity a statement may touch. */
export type RowState = 'live' | 'deleted' | 'any';

/** `deleted_at IS NULL` (live) or `IS NOT NULL` (deleted) for entities with soft delete; null otherwise or for `any`. */
export function rowStateSql(target: AliasedEntity, state: RowState): string | null {
  if (state === 'any' || !target.plan.model.softDelete) return null;
  return `${target.alias}.${target.plan.column('deleted_at')} IS ${state === 'live' ? 'NULL' : 'NOT NULL'}`;
}

/** The live-row condition, as TypeORM adds it unless `withDeleted`: null for entities without soft delete. */
export function liveRowSql(target: AliasedEntity): string | null {
  return rowStateSql(target, 'live');
}

/** The join condition from `from` to `to` along `relation` (a relation of `from`'s entity). */
export function relationLinkSql(relation: RelationModel, from: AliasedEntity, to: AliasedEntity): string {
  return relation.kind === 'many-to-one'
    ? `${to.alias}.${to.plan.primaryKeyColumn} = ${from.alias}.${from.plan.column(relation.foreignKey)}`
    : `${to.alias}.${to.plan.column(relation.foreignKey)} = ${from.alias}.${from.plan.primaryKeyColumn}`;
}

/** How `existsThroughSql` treats each entity it passes through. */
export interface ChainOptions {
  /** Prefix of the aliases of the chain's tables. */
  readonly aliasPrefix: string;
  /** Extra conditions on each entity of the chain (live rows, its own scope). */
  readonly each: (target: AliasedEntity) => readonly string[];
  /** Which foreign keys the caller may read: a link through an unreadable one reaches nothing. */
  readonly cells?: CellAccess;
}

/**
 * `EXISTS (SELECT 1 FROM <first> INNER JOIN <next> ON <link>... WHERE <link to from> AND ... AND <last>)`:
 * whether a row reached from `from` along `relations` satisfies `last`.
 */
export function existsThroughSql(
  from: AliasedEntity,
  relations: readonly string[],
  sql: SqlContext,
  options: ChainOptions,
  last: (target: AliasedEntity) => string,
): string {
  const tables: string[] = [];
  const where: string[] = [];
  let previous = from;
  relations.forEach((name, index) => {
    const relation = previous.plan.relation(name);
    const next: AliasedEntity = { alias: sql.alias(options.aliasPrefix), plan: sql.plans.get(relation.target) };
    const link = onReadableCell(readableLinkSql(relation, previous, next, sql, options.cells ?? ALL_CELLS), () => relationLinkSql(relation, previous, next));
    if (index === 0) {
      tables.push(`${next.plan.table} ${next.alias}`);
      where.push(link);
    } else {
      tables.push(`INNER JOIN ${next.plan.table} ${next.alias} ON ${link}`);
    }
    where.push(...options.each(next));
    previous = next;
  });
  where.push(last(previous));
  return `EXISTS (SELECT 1 FROM ${tables.join(' ')} WHERE ${where.join(' AND ')})`;
}
