import type { RelationModel } from '../schema/model';
import type { AliasedEntity, SqlContext } from './sql-context';

/**
 * The condition under which the caller may read one cell (a field of a row of `target`), as SQL over
 * `target`'s alias: null when always (the common case: no field rule restricts it), `'FALSE'` when
 * never. Field rules of `permissions` come through here; every place a statement reads a column asks
 * it, so an unreadable cell is never selected, filtered on, sorted by, linked through or hashed.
 */
export type CellAccess = (target: AliasedEntity, field: string, sql: SqlContext) => string | null;

/** Every cell readable: statements are written exactly as without field rules. */
export const ALL_CELLS: CellAccess = () => null;

/** The SQL condition of a never-readable cell. */
export const NEVER = 'FALSE';

/** The column as the caller reads it: the column itself, or NULL where the cell is unreadable. */
export function readableColumnSql(target: AliasedEntity, field: string, sql: SqlContext, cells: CellAccess): string {
  const column = `${target.alias}.${target.plan.column(field)}`;
  const readable = cells(target, field, sql);
  if (readable === null) return column;
  return readable === NEVER ? 'NULL' : `CASE WHEN ${readable} THEN ${column} END`;
}

/**
 * `condition` on a cell, false where the cell is unreadable. The condition is built only when the cell
 * may be readable: a condition built and then dropped would leave its bound parameters without a
 * placeholder in the statement, which PostgreSQL rejects ("could not determine data type of parameter").
 */
export function onReadableCell(readable: string | null, condition: () => string): string {
  if (readable === NEVER) return 'FALSE';
  return readable === null ? condition() : `((${readable}) AND ${condition()})`;
}

/** Where the link of `relation` from `from` to `to` reads a foreign key, whether the caller may read it (null: always). */
export function readableLinkSql(
  relation: RelationModel,
  from: AliasedEntity,
  to: AliasedEntity,
  sql: SqlContext,
  cells: CellAccess,
): string | null {
  return relation.kind === 'many-to-one' ? cells(from, relation.foreignKey, sql) : cells(to, relation.foreignKey, sql);
}
