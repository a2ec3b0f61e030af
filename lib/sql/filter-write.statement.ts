import type { ValidatedQuery } from '../query/query.types';
import type { CellAccess } from './cell-access';
import type { RelatedCondition, RootCondition } from './conditions';
import type { EntityPlan, EntityPlans } from './entity-plan';
import type { ReadExecutor } from './read.executor';
import { carryReadable, returningSql } from './readable-record';
import { SqlContext } from './sql-context';
import type { SqlExecutor } from './sql-executor';
import type { WriteChange } from './write.executor';
import { checkTerm, type WriteCheck } from './write-check';

type Record_ = Record<string, unknown>;

/** Aliases of the statement; `:` never occurs in a property name, so none collides with a column. */
const MATCHED_CTE = 'svc_matched';
const CHANGED_CTE = 'svc_changed';
const KEY = 'svc:key';
const MATCHED_COUNT = 'svc:matched';
const PREVIOUS_PREFIX = 'previous:';

/** What a by-filter write matched and changed. */
export interface FilterWriteResult {
  /** Rows the filter matched, counted up to `limit + 1`. */
  readonly matched: number;
  /** The changed rows with the rows before; empty when `matched` is over the limit. */
  readonly changes: WriteChange[];
}

/** Where the rows of a by-filter write come from: the list's query, its conditions and the scope of related entities. */
export interface FilterMatch {
  readonly query: ValidatedQuery;
  readonly conditions: readonly RootCondition[];
  readonly related: RelatedCondition;
  /** The cells the caller may read: a filter matches on those only. */
  readonly cells?: CellAccess;
}

/** The change made to each matched row: SET assignments (every changed row must meet `check`), or removal. */
export type FilterChange =
  | { readonly kind: 'set'; readonly assignments: (sql: SqlContext) => string[]; readonly check?: WriteCheck | null }
  | { readonly kind: 'delete' };

/**
 * One statement that changes every row a list with the same query would match, and only when
 * they are at most `limit`:
 * `WITH svc_matched AS (SELECT <key>, <row> FROM <list FROM> WHERE <list WHERE> LIMIT limit + 1 FOR UPDATE OF <root>),
 * svc_changed AS (UPDATE ... FROM svc_matched WHERE <key> AND (SELECT COUNT(*) FROM svc_matched) <= limit RETURNING ...)
 * SELECT <count>, svc_changed.* ...`. The rows are locked before they are counted, so the
 * count and the write see the same rows; over the limit nothing is written.
 */
export async function writeMatching(
  executor: SqlExecutor,
  plans: EntityPlans,
  reader: ReadExecutor,
  plan: EntityPlan,
  match: FilterMatch,
  change: FilterChange,
  limit: number,
): Promise<FilterWriteResult> {
  const sql = new SqlContext(plans, (name) => executor.escape(name));
  const escape = sql.escape;
  const { root, from, where } = reader.matching(match.query, match.conditions, match.related, sql, match.cells);
  const matched = escape(MATCHED_CTE);
  const key = escape(KEY);
  const columns = plan.visibleColumns;
  const select = [
    `${root.alias}.${plan.primaryKeyColumn} AS ${key}`,
    ...columns.map((column) => `${root.alias}.${plan.column(column.name)} AS ${escape(PREVIOUS_PREFIX + column.name)}`),
  ];
  const limitParam = sql.param(limit);
  const matchedSql =
    `SELECT ${select.join(', ')} FROM ${from}${where} ORDER BY ${root.alias}.${plan.primaryKeyColumn}` +
    ` LIMIT ${limitParam} + 1 FOR UPDATE OF ${root.alias}`;
  const withinLimit = `(SELECT COUNT(*) FROM ${matched}) <= ${limitParam}`;
  const joinKey = `${plan.table}.${plan.primaryKeyColumn} = ${matched}.${key}`;
  const returning = [returningSql(plan, sql, executor.cells, true), ...columns.map((column) => `${matched}.${escape(PREVIOUS_PREFIX + column.name)}`)].join(', ');
  const write =
    change.kind === 'delete'
      ? `DELETE FROM ${plan.table} USING ${matched} WHERE ${joinKey} AND ${withinLimit} RETURNING ${returning}`
      : `UPDATE ${plan.table} SET ${[...change.assignments(sql), ...plan.onUpdate].join(', ')} FROM ${matched}` +
        ` WHERE ${joinKey} AND ${withinLimit} RETURNING ${returning}` +
        (change.check ? `, ${checkTerm(change.check, { alias: plan.table, plan }, sql)}` : '');
  const changed = escape(CHANGED_CTE);
  const text =
    `WITH ${matched} AS (${matchedSql}), ${changed} AS (${write})` +
    ` SELECT (SELECT COUNT(*) FROM ${matched}) AS ${escape(MATCHED_COUNT)}, ${changed}.* FROM (SELECT 1) AS ${escape('svc_one')}` +
    ` LEFT JOIN ${changed} ON TRUE`;
  // The text follows the filter's shape: too varied to keep prepared.
  const rows = await executor.records(sql.statement(text, { oneOff: true }));
  const primaryKey = plan.primaryKey.name;
  const changes = rows
    .filter((row) => row[primaryKey] !== null && row[primaryKey] !== undefined)
    .map((row): WriteChange => {
      const record: Record_ = {};
      const previous: Record_ = {};
      for (const column of columns) {
        record[column.name] = row[column.name];
        previous[column.name] = row[PREVIOUS_PREFIX + column.name];
      }
      carryReadable(row, record);
      return { record, previous };
    });
  return { matched: Number(rows[0]?.[MATCHED_COUNT] ?? 0), changes };
}
