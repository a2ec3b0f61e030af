import { ALL_CELLS, type CellAccess } from './cell-access';
import type { RootCondition } from './conditions';
import { readableVersionSql } from './readable-version';

/** The root row's version as the caller sees it (`readableVersionSql`) is one of `accepted`; none accepted: no row matches. */
export function rowVersionIn(accepted: readonly string[], cells: CellAccess = ALL_CELLS): RootCondition {
  return (root, sql) => `${readableVersionSql(root, sql, cells)} = ANY(${sql.param([...accepted])}::text[])`;
}
