/**
 * The `check` of `permissions` (RLS's WITH CHECK): a condition every row a write produces must meet.
 * It is evaluated in the RETURNING of the statement that writes, on the new values, and a row that
 * fails it raises an error inside that statement, so the statement (and the transaction around it)
 * writes nothing. The error carries a marker that `isWriteCheckFailure()` recognizes.
 */
import type { ValidatedWhere } from '../query/query.types';
import type { RootCondition } from './conditions';
import type { AliasedEntity, SqlContext } from './sql-context';
import { buildWhereSql } from './where.builder';

/** A condition on the written row, as SQL on its alias (the table, in RETURNING). */
export type WriteCheck = RootCondition;

/**
 * The write rules of an upsert: a check for the rows it inserts and one for those it updates (null: none),
 * and the columns it writes on insert only (values a create rule forces, which an update must not write).
 */
export interface UpsertChecks {
  readonly inserted: WriteCheck | null;
  readonly updated: WriteCheck | null;
  readonly insertOnly?: ReadonlySet<string>;
}

/** One role's part of an update's check: its `where` on the row before the write, its `check` on the row after; null: none. */
export interface ReachingCheck {
  readonly before: ValidatedWhere | null;
  readonly after: ValidatedWhere | null;
}

/**
 * The check of an update: for some role, its `where` on the row before the write AND its `check` on the
 * row after. The row before is read by a sub-query on the same table, which sees the statement's snapshot,
 * not the row the statement writes.
 */
export function reachingCheck(roles: readonly ReachingCheck[]): WriteCheck {
  return (root, sql) => {
    const pk = root.plan.primaryKeyColumn;
    const terms = roles.map((role) => {
      const parts: string[] = [];
      if (role.before !== null) {
        const before = sql.alias('svc_before');
        const reached = buildWhereSql(role.before, { alias: before, plan: root.plan }, () => undefined, sql);
        parts.push(`EXISTS (SELECT 1 FROM ${root.plan.table} AS ${before} WHERE ${before}.${pk} = ${root.alias}.${pk} AND ${reached})`);
      }
      if (role.after !== null) parts.push(buildWhereSql(role.after, root, () => undefined, sql));
      return parts.length === 0 ? 'TRUE' : `(${parts.join(' AND ')})`;
    });
    return `(${terms.join(' OR ')})`;
  };
}

/** The text a failed check casts to an integer; `:` never occurs in a property name, nor in our other SQL. */
const CHECK_FAILED = 'svc:check-failed';

/** RETURNING alias of the check term, removed from the records. */
export const CHECK_ALIAS = 'svc:check';
/** RETURNING alias of an upsert's second check term (its updates). */
export const UPDATE_CHECK_ALIAS = 'svc:check-update';

/**
 * `CASE WHEN (<check>) THEN NULL ELSE CAST('svc:check-failed:' || <pk> AS integer) END`: NULL for a row
 * that meets the check, an error for one that does not (a NULL check fails, as in WITH CHECK). The
 * ELSE names a column, so PostgreSQL cannot fold it into an error while planning.
 */
export function checkTerm(check: WriteCheck, row: AliasedEntity, sql: SqlContext, when: string | null = null, alias = CHECK_ALIAS): string {
  const failed = `CAST(CAST(${sql.param(`${CHECK_FAILED}:`)} AS text) || CAST(${row.alias}.${row.plan.primaryKeyColumn} AS text) AS integer)`;
  const condition = when === null ? `(${check(row, sql)})` : `(NOT (${when}) OR (${check(row, sql)}))`;
  return `CASE WHEN ${condition} THEN NULL ELSE ${failed} END AS ${sql.escape(alias)}`;
}

/** The records without the check's RETURNING column. */
export function withoutCheck<T extends Record<string, unknown>>(rows: T[]): T[] {
  for (const row of rows) delete row[CHECK_ALIAS];
  return rows;
}

/** Whether an error is a row failing a write's check (see `checkTerm()`). */
export function isWriteCheckFailure(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth++) {
    const { message } = current as { message?: unknown };
    if (typeof message === 'string' && message.includes(CHECK_FAILED)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}
