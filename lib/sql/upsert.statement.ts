import type { ColumnModel } from '../schema/model';
import type { RootCondition } from './conditions';
import type { EntityPlan, EntityPlans, WritableColumn } from './entity-plan';
import { liveRowSql } from './predicates';
import { carryReadable, returningSql } from './readable-record';
import { type AliasedEntity, SqlContext } from './sql-context';
import type { SqlExecutor } from './sql-executor';
import { CHECK_ALIAS, checkTerm, UPDATE_CHECK_ALIAS, type UpsertChecks } from './write-check';

type Record_ = Record<string, unknown>;

/** RETURNING alias of `xmax = 0`; `:` never occurs in a property name. */
const INSERTED = 'svc:inserted';

/**
 * One row of an upsert: the record as written, whether it was inserted (else an existing row was
 * updated), and for an update with `trackPrevious`, the row just before.
 */
export interface UpsertedRow {
  readonly record: Record_;
  readonly inserted: boolean;
  readonly previous?: Record_;
}

/**
 * The result of `upsertRows()`, in input order: null where the row conflicted with an existing
 * row the conditions exclude (another tenant's, one `conditions()` hides, a soft-deleted one),
 * which the statement left untouched.
 */
export type UpsertResult = (UpsertedRow | null)[];

/**
 * `INSERT ... ON CONFLICT (<unique column>) DO UPDATE SET <the row's columns> = EXCLUDED...
 * WHERE <live> AND <conditions> RETURNING ..., (xmax = 0)`. The conditions apply to the existing
 * row inside the statement, under its row lock, so a row outside them is never changed, not even
 * for a moment. An update writes only the columns its row gives (as PATCH does); an insert gives
 * the others their DEFAULT. Rows giving different columns go in one statement per column set: call
 * inside a transaction so that they commit together, and so that a caller who finds a null in the
 * result can roll every row back. With `trackPrevious` (domain events), the rows the upsert may
 * update are first locked and read (`SELECT ... FOR UPDATE`, same conditions) in that transaction,
 * so each update's `previous` is exactly the row it replaced.
 */
export async function upsertRows(
  executor: SqlExecutor,
  plans: EntityPlans,
  plan: EntityPlan,
  rows: readonly Record_[],
  conflict: ColumnModel,
  conditions: readonly RootCondition[],
  trackPrevious: boolean,
  checks: UpsertChecks = { inserted: null, updated: null },
): Promise<UpsertResult> {
  const result: UpsertResult = rows.map(() => null);
  const conflictColumn = plan.writableColumns.find((column) => column.model.name === conflict.name);
  if (!conflictColumn) throw new Error(`${plan.model.name}.${conflict.name} is not a writable column`);
  const keyValues = rows.map((row) => plan.persistentValue(conflictColumn, row[conflict.name]));
  const previous = trackPrevious ? await lockExisting(executor, plans, plan, conflict, keyValues, conditions) : new Map<string, Record_>();
  for (const group of groupByColumns(plan, rows)) {
    const sql = new SqlContext(plans, (name) => executor.escape(name));
    const tuples = group.indexes.map((index) => `(${group.columns.map((column) => sql.param(plan.persistentValue(column, rows[index][column.model.name]))).join(', ')})`);
    const target = plan.column(conflict.name);
    const updated = group.columns.filter((column) => column.model.name === conflict.name || !checks.insertOnly?.has(column.model.name));
    const assignments = [...updated.map((column) => `${column.sql} = EXCLUDED.${column.sql}`), ...plan.onUpdate];
    const where = updatableSql(plan, conditions, sql);
    const written: AliasedEntity = { alias: plan.table, plan };
    const insertedSql = `${plan.table}.xmax = 0`;
    const checked = [
      ...(checks.inserted ? [checkTerm(checks.inserted, written, sql, insertedSql)] : []),
      ...(checks.updated ? [checkTerm(checks.updated, written, sql, `NOT (${insertedSql})`, UPDATE_CHECK_ALIAS)] : []),
    ];
    const text =
      `INSERT INTO ${plan.table} (${group.columns.map((column) => column.sql).join(', ')}) VALUES ${tuples.join(', ')}` +
      ` ON CONFLICT (${target}) DO UPDATE SET ${assignments.join(', ')}` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
      ` RETURNING ${[returningSql(plan, sql, executor.cells, true), `(${insertedSql}) AS ${sql.escape(INSERTED)}`, ...checked].join(', ')}`;
    const returned = await executor.records(sql.statement(text, { oneOff: true }));
    // RETURNING gives the written rows in input order, skipping those the WHERE left alone.
    const byKey = new Map<string, Record_>();
    for (const row of returned) byKey.set(keyOf(row[conflict.name]), row);
    for (const index of group.indexes) {
      const key = keyOf(keyValues[index]);
      const row = byKey.get(key);
      if (!row) continue;
      const { [INSERTED]: inserted, [CHECK_ALIAS]: _checked, [UPDATE_CHECK_ALIAS]: _updated, ...record } = row;
      carryReadable(row, record);
      const before = previous.get(key);
      result[index] = inserted !== true && before ? { record, inserted: false, previous: before } : { record, inserted: inserted === true };
    }
  }
  return result;
}

/** What an existing row must satisfy to be updated: live, and every condition (scope, identity, hook). */
function updatableSql(plan: EntityPlan, conditions: readonly RootCondition[], sql: SqlContext): string[] {
  const existing: AliasedEntity = { alias: plan.table, plan };
  return [liveRowSql(existing), ...conditions.map((condition) => `(${condition(existing, sql)})`)].filter(
    (part): part is string => part !== null,
  );
}

/** The existing rows the upsert may update, locked until the transaction ends, by their conflict value. */
async function lockExisting(
  executor: SqlExecutor,
  plans: EntityPlans,
  plan: EntityPlan,
  conflict: ColumnModel,
  keyValues: readonly unknown[],
  conditions: readonly RootCondition[],
): Promise<Map<string, Record_>> {
  const sql = new SqlContext(plans, (name) => executor.escape(name));
  const where = [`${plan.table}.${plan.column(conflict.name)} = ANY(${sql.param(keyValues)})`, ...updatableSql(plan, conditions, sql)];
  const text = `SELECT ${plan.returning} FROM ${plan.table} WHERE ${where.join(' AND ')} FOR UPDATE`;
  const rows = await executor.records(sql.statement(text, { oneOff: true }));
  return new Map(rows.map((row) => [keyOf(row[conflict.name]), row]));
}

interface ColumnGroup {
  readonly columns: readonly WritableColumn[];
  readonly indexes: number[];
}

/** Rows by the set of columns they give, in order of first appearance. */
function groupByColumns(plan: EntityPlan, rows: readonly Record_[]): ColumnGroup[] {
  const groups = new Map<string, ColumnGroup>();
  rows.forEach((row, index) => {
    const columns = plan.writableColumns.filter((column) => row[column.model.name] !== undefined);
    const key = columns.map((column) => column.model.name).join('\u0000');
    let group = groups.get(key);
    if (!group) {
      group = { columns, indexes: [] };
      groups.set(key, group);
    }
    group.indexes.push(index);
  });
  return [...groups.values()];
}

/** Values of the conflict column compared as the database returned them: text of numbers, ISO dates. */
function keyOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}
