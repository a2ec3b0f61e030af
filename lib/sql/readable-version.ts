import { ALL_CELLS, type CellAccess, readableColumnSql } from './cell-access';
import type { AliasedEntity, SqlContext } from './sql-context';

/**
 * The version of a row as the caller sees it: over the cells it may read, each unreadable one as NULL,
 * so a change to a cell it cannot read never changes its `ETag`. Without field rules, `plan.version()`.
 */
export function readableVersionSql(target: AliasedEntity, sql: SqlContext, cells: CellAccess = ALL_CELLS): string {
  const columns = target.plan.visibleColumns.map((column) => readableColumnSql(target, column.name, sql, cells));
  const plain = target.plan.visibleColumns.map((column) => `${target.alias}.${target.plan.column(column.name)}`);
  if (columns.every((column, i) => column === plain[i])) return target.plan.version(target.alias);
  return `md5(ROW(${columns.join(', ')})::text)`;
}
