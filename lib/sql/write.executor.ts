import type { EntityManager } from 'typeorm';
import type { RootCondition } from './conditions';
import type { EntityPlan, EntityPlans } from './entity-plan';
import { rowStateSql, type RowState } from './predicates';
import { carryReadable, returningSql } from './readable-record';
import { type AliasedEntity, SqlContext } from './sql-context';
import type { SqlExecutor } from './sql-executor';
import { checkTerm, type WriteCheck, withoutCheck } from './write-check';

type Record_ = Record<string, unknown>;

/**
 * How an update treats the writable columns a body omits: `false` keeps them (PATCH), `true`
 * returns each to its default or NULL (PUT), a set does that except for the columns it names.
 */
export type Replace = boolean | ReadonlySet<string>;

/** The PostgreSQL protocol numbers bind parameters with 16 bits. */
const MAX_BIND_PARAMETERS = 65535;

/** Name of the CTE holding the row a tracked write replaces. */
const PREVIOUS_CTE = 'svc_previous';
/** Prefix of the RETURNING aliases of the previous row's columns; `:` never occurs in a property name. */
const PREVIOUS_PREFIX = 'previous:';

/** A written record and, for changes to an existing row, that row just before the statement. */
export interface WriteChange {
  readonly record: Record_;
  readonly previous?: Record_;
}

/** What an UPDATE writes: SQL expressions by escaped column, built with the statement's `SqlContext`. */
type Assignments = (sql: SqlContext) => string[];

/**
 * Single-statement writes with RETURNING, so a write and the record it produced
 * cost one round trip and a failed write changes nothing. The SQL is written here from the
 * entity plans and run by `SqlExecutor`.
 */
export class WriteExecutor {
  constructor(
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
  ) {}

  /**
   * Inserts rows (one statement, all or nothing) and returns them in order. Values go through the
   * driver as TypeORM would send them (JSON, dates, transformers); an omitted field takes its
   * column DEFAULT. A bulk with more values than one statement can bind is split, inside one transaction.
   * A row that fails `check` (see `write-check.ts`) makes the whole insert fail.
   */
  async insert(
    plan: EntityPlan,
    rows: readonly Record_[],
    connection?: EntityManager,
    check: WriteCheck | null = null,
  ): Promise<Record_[]> {
    if (rows.length === 0) return [];
    const rowsPerStatement = Math.max(1, Math.floor((MAX_BIND_PARAMETERS - 1) / Math.max(1, plan.writableColumns.length)));
    if (rows.length <= rowsPerStatement) return this.insertStatement(plan, rows, connection, check);
    const insertAll = async (transaction: EntityManager) => {
      const inserted: Record_[] = [];
      for (let start = 0; start < rows.length; start += rowsPerStatement) {
        inserted.push(...(await this.insertStatement(plan, rows.slice(start, start + rowsPerStatement), transaction, check)));
      }
      return inserted;
    };
    return connection ? insertAll(connection) : this.executor.transaction(insertAll);
  }

  private async insertStatement(
    plan: EntityPlan,
    rows: readonly Record_[],
    connection: EntityManager | undefined,
    check: WriteCheck | null,
  ): Promise<Record_[]> {
    const columns = plan.writableColumns;
    const sql = this.sqlContext();
    const tuples = rows.map((row) => {
      // An entity without fields still inserts a row: every column takes its default.
      if (columns.length === 0) return '(DEFAULT)';
      const values = columns.map((column) => {
        const value = row[column.model.name];
        return value === undefined ? 'DEFAULT' : sql.param(plan.persistentValue(column, value));
      });
      return `(${values.join(', ')})`;
    });
    const target = columns.length === 0 ? plan.primaryKeyColumn : columns.map((column) => column.sql).join(', ');
    // Only a single record's answer carries an ETag: a bulk does not hash every row it inserts.
    const returning = [returningSql(plan, sql, this.executor.cells, rows.length === 1), ...checkTerms(plan, check, sql)].join(', ');
    const text = `INSERT INTO ${plan.table} (${target}) VALUES ${tuples.join(', ')} RETURNING ${returning}`;
    // A bulk's text depends on its row count: only single-row inserts repeat often enough to prepare.
    return withoutCheck(await this.executor.records(sql.statement(text, { oneOff: rows.length > 1 }), connection));
  }

  /**
   * Updates the row with `id` when it satisfies `conditions`. With `replace`,
   * every writable column the body omits returns to its default (or NULL).
   * Returns null when no row matched.
   */
  async update(
    plan: EntityPlan,
    id: string | number,
    values: Record_,
    conditions: readonly RootCondition[],
    replace: Replace,
    check: WriteCheck | null = null,
  ): Promise<Record_ | null> {
    const set = writableAssignments(plan, values, replace);
    if (set === null) return this.current(plan, id, conditions);
    const [row] = await this.updateStatement(plan, set, id, conditions, liveOrAny(plan), (sql) => returningSql(plan, sql, this.executor.cells, true), check);
    return row ?? null;
  }

  /** Deletes (or soft-deletes) the row with `id` when it satisfies `conditions`; false when none matched. */
  async delete(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<boolean> {
    const rows = plan.model.softDelete
      ? await this.updateStatement(plan, softDelete(plan), id, conditions, 'live', () => plan.primaryKeyColumn)
      : await this.deleteStatement(plan, id, conditions, () => plan.primaryKeyColumn);
    return rows.length > 0;
  }

  /** Clears `deleted_at` of a soft-deleted row; null when no deleted row matched. */
  async recover(
    plan: EntityPlan,
    id: string | number,
    conditions: readonly RootCondition[],
    check: WriteCheck | null = null,
  ): Promise<Record_ | null> {
    const returning = (sql: SqlContext) => returningSql(plan, sql, this.executor.cells, true);
    const [row] = await this.updateStatement(plan, recovery(plan), id, conditions, 'deleted', returning, check);
    return row ?? null;
  }

  /** `update()`, also returning the row as it was before (for domain events). Still one statement. */
  async updateTracked(
    plan: EntityPlan,
    id: string | number,
    values: Record_,
    conditions: readonly RootCondition[],
    replace: Replace,
    check: WriteCheck | null = null,
  ): Promise<WriteChange | null> {
    const set = writableAssignments(plan, values, replace);
    if (set === null) {
      const row = await this.current(plan, id, conditions);
      return row ? { record: row, previous: row } : null;
    }
    return this.trackedUpdate(plan, id, set, conditions, liveOrAny(plan), check);
  }

  /** `delete()`, returning the removed (or soft-deleted) row and the row before; null when none matched. */
  async deleteTracked(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<WriteChange | null> {
    if (plan.model.softDelete) return this.trackedUpdate(plan, id, softDelete(plan), conditions, 'live');
    const [row] = await this.deleteStatement(plan, id, conditions, (sql) => returningSql(plan, sql, this.executor.cells, true));
    return row ? { record: row, previous: row } : null;
  }

  /** `recover()`, also returning the row as it was before; null when no deleted row matched. */
  async recoverTracked(
    plan: EntityPlan,
    id: string | number,
    conditions: readonly RootCondition[],
    check: WriteCheck | null = null,
  ): Promise<WriteChange | null> {
    return this.trackedUpdate(plan, id, recovery(plan), conditions, 'deleted', check);
  }

  /**
   * The row an update with nothing to write (`PATCH {}`) would have changed, read under the same
   * conditions, so that it answers like an update: the row, or null when the caller may not update it.
   */
  private async current(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<Record_ | null> {
    const sql = this.sqlContext();
    const where = this.matchSql(plan, id, conditions, sql, liveOrAny(plan));
    const returning = returningSql(plan, sql, this.executor.cells, true);
    const [row] = await this.executor.records(sql.statement(`SELECT ${returning} FROM ${plan.table} WHERE ${where}`));
    return row ?? null;
  }

  /** `UPDATE <table> SET ... WHERE <match> RETURNING <returning>`. */
  private async updateStatement(
    plan: EntityPlan,
    set: Assignments,
    id: string | number,
    conditions: readonly RootCondition[],
    state: RowState,
    returning: (sql: SqlContext) => string,
    check: WriteCheck | null = null,
  ): Promise<Record_[]> {
    const sql = this.sqlContext();
    const assignments = [...set(sql), ...plan.onUpdate].join(', ');
    const where = this.matchSql(plan, id, conditions, sql, state);
    const terms = [returning(sql), ...checkTerms(plan, check, sql)].join(', ');
    return withoutCheck(
      await this.executor.records(sql.statement(`UPDATE ${plan.table} SET ${assignments} WHERE ${where} RETURNING ${terms}`)),
    );
  }

  /** `DELETE FROM <table> WHERE <match> RETURNING <returning>`. */
  private deleteStatement(
    plan: EntityPlan,
    id: string | number,
    conditions: readonly RootCondition[],
    returning: (sql: SqlContext) => string,
  ): Promise<Record_[]> {
    const sql = this.sqlContext();
    const where = this.matchSql(plan, id, conditions, sql, 'any');
    return this.executor.records(sql.statement(`DELETE FROM ${plan.table} WHERE ${where} RETURNING ${returning(sql)}`));
  }

  /**
   * `WITH svc_previous AS (SELECT ... FOR UPDATE) UPDATE ... WHERE pk IN (SELECT pk FROM svc_previous)
   * RETURNING <new columns>, (SELECT <old column> FROM svc_previous)...`. The CTE locks the row
   * before the update reads it, so under concurrent writers `previous` is exactly the version
   * this statement replaced; both rows come back with the same column types.
   */
  private async trackedUpdate(
    plan: EntityPlan,
    id: string | number,
    set: Assignments,
    conditions: readonly RootCondition[],
    state: RowState,
    check: WriteCheck | null = null,
  ): Promise<WriteChange | null> {
    const sql = this.sqlContext();
    const escape = sql.escape;
    const previous = escape(PREVIOUS_CTE);
    const columns = plan.visibleColumns;
    const select =
      `SELECT ${columns.map((column) => `${plan.column(column.name)} AS ${escape(column.name)}`).join(', ')} ` +
      `FROM ${plan.table} WHERE ${this.matchSql(plan, id, conditions, sql, state)} FOR UPDATE`;
    const assignments = [...set(sql), ...plan.onUpdate].join(', ');
    const previousColumns = columns.map(
      (column) => `(SELECT ${previous}.${escape(column.name)} FROM ${previous}) AS ${escape(PREVIOUS_PREFIX + column.name)}`,
    );
    const text =
      `WITH ${previous} AS (${select}) UPDATE ${plan.table} SET ${assignments}` +
      ` WHERE ${plan.table}.${plan.primaryKeyColumn} IN (SELECT ${previous}.${escape(plan.primaryKey.name)} FROM ${previous})` +
      ` RETURNING ${[returningSql(plan, sql, this.executor.cells, true), ...previousColumns, ...checkTerms(plan, check, sql)].join(', ')}`;
    const [row] = await this.executor.records(sql.statement(text));
    if (!row) return null;
    const record: Record_ = {};
    const before: Record_ = {};
    for (const column of columns) {
      record[column.name] = row[column.name];
      before[column.name] = row[PREVIOUS_PREFIX + column.name];
    }
    carryReadable(row, record);
    return { record, previous: before };
  }

  /** `<table>.<pk> = $n [AND deleted_at IS [NOT] NULL] AND <conditions>`. */
  private matchSql(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[], sql: SqlContext, state: RowState): string {
    const root: AliasedEntity = { alias: plan.table, plan };
    const parts = [`${root.alias}.${plan.primaryKeyColumn} = ${sql.param(id)}`];
    const deleted = rowStateSql(root, state);
    if (deleted !== null) parts.push(deleted);
    for (const condition of conditions) parts.push(condition(root, sql));
    return parts.join(' AND ');
  }

  private sqlContext(): SqlContext {
    return new SqlContext(this.plans, (name) => this.executor.escape(name));
  }
}

/** The RETURNING term that fails the statement when a written row does not meet `check`; none without one. */
function checkTerms(plan: EntityPlan, check: WriteCheck | null, sql: SqlContext): string[] {
  return check === null ? [] : [checkTerm(check, { alias: plan.table, plan }, sql)];
}

/** Updates of a soft-deletable entity touch live rows only. */
function liveOrAny(plan: EntityPlan): RowState {
  return plan.model.softDelete ? 'live' : 'any';
}

function softDelete(plan: EntityPlan): Assignments {
  return () => [`${plan.column('deleted_at')} = CURRENT_TIMESTAMP`];
}

function recovery(plan: EntityPlan): Assignments {
  return () => [`${plan.column('deleted_at')} = NULL`];
}

/**
 * The body's values for writable columns only; with `replace`, omitted ones return to DEFAULT
 * (NULL when the column has none). Null when there is nothing to write.
 */
function writableAssignments(plan: EntityPlan, body: Record_, replace: Replace): Assignments | null {
  const written = plan.writableColumns.filter(
    ({ model: column }) => body[column.name] !== undefined || replace === true || (replace instanceof Set && !replace.has(column.name)),
  );
  if (written.length === 0) return null;
  return (sql) =>
    written.map((column) => {
      const value = body[column.model.name];
      return `${column.sql} = ${value === undefined ? 'DEFAULT' : sql.param(plan.persistentValue(column, value))}`;
    });
}
