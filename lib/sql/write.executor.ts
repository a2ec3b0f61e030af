import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import type { EntityPlan, EntityPlans } from './entity-plan';
import type { RootCondition } from './read.executor';
import { type AliasedEntity, SqlContext } from './sql-context';

type Record_ = Record<string, unknown>;

/**
 * How an update treats the writable columns a body omits: `false` keeps them (PATCH), `true`
 * returns each to its default or NULL (PUT), a set does that except for the columns it names.
 */
export type Replace = boolean | ReadonlySet<string>;

/** The PostgreSQL protocol numbers bind parameters with 16 bits. */
const MAX_BIND_PARAMETERS = 65535;

/** Raw SQL for "the column's default (NULL when it has none)", used by PUT for omitted fields. */
const DEFAULT_VALUE = () => 'DEFAULT';

/** Name of the CTE holding the row a tracked write replaces. */
const PREVIOUS_CTE = 'svc_previous';
/** Prefix of the RETURNING aliases of the previous row's columns; `:` never occurs in a property name. */
const PREVIOUS_PREFIX = 'previous:';

/** A written record and, for changes to an existing row, that row just before the statement. */
export interface WriteChange {
  readonly record: Record_;
  readonly previous?: Record_;
}

/**
 * Single-statement writes with RETURNING, so a write and the record it produced
 * cost one round trip and a failed write changes nothing.
 */
export class WriteExecutor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plans: EntityPlans,
  ) {}

  /**
   * Inserts rows (one statement, all or nothing) and returns them in order. The statement is built
   * here: TypeORM's InsertQueryBuilder spends a third of a 100-row bulk create on its parameter
   * bookkeeping, which grows with rows × columns. Values go through the driver as TypeORM would
   * send them (JSON, dates, transformers); an omitted field takes its column DEFAULT. A bulk with
   * more values than one statement can bind is split, inside one transaction.
   */
  async insert(plan: EntityPlan, rows: readonly Record_[], manager?: EntityManager): Promise<Record_[]> {
    if (rows.length === 0) return [];
    const rowsPerStatement = Math.max(1, Math.floor(MAX_BIND_PARAMETERS / Math.max(1, plan.writableColumns.length)));
    if (rows.length <= rowsPerStatement) return this.insertStatement(plan, rows, manager ?? this.dataSource.manager);
    const insertAll = async (transaction: EntityManager) => {
      const inserted: Record_[] = [];
      for (let start = 0; start < rows.length; start += rowsPerStatement) {
        inserted.push(...(await this.insertStatement(plan, rows.slice(start, start + rowsPerStatement), transaction)));
      }
      return inserted;
    };
    return manager ? insertAll(manager) : this.dataSource.transaction(insertAll);
  }

  private async insertStatement(plan: EntityPlan, rows: readonly Record_[], manager: EntityManager): Promise<Record_[]> {
    const driver = this.dataSource.driver;
    const columns = plan.writableColumns;
    const parameters: unknown[] = [];
    const tuples = rows.map((row) => {
      // An entity without fields still inserts a row: every column takes its default.
      if (columns.length === 0) return '(DEFAULT)';
      const values = columns.map((column) => {
        const value = row[column.model.name];
        if (value === undefined) return 'DEFAULT';
        parameters.push(driver.preparePersistentValue(value, column.metadata));
        return `$${parameters.length}`;
      });
      return `(${values.join(', ')})`;
    });
    const target = columns.length === 0 ? plan.primaryKeyColumn : columns.map((column) => column.sql).join(', ');
    const sql = `INSERT INTO ${plan.table} (${target}) VALUES ${tuples.join(', ')} RETURNING ${plan.returning}`;
    return (await manager.query(sql, parameters)) as Record_[];
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
  ): Promise<Record_ | null> {
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    const set = writableValues(plan, values, replace);
    if (Object.keys(set).length === 0) return this.current(plan, id, conditions);
    const qb = this.dataSource.createQueryBuilder().update(plan.metadata.target);
    qb.set(set as ObjectLiteral)
      .where(this.matchSql(root, id, conditions, sql, plan.model.softDelete ? 'live' : 'any'))
      .setParameters(sql.params)
      .returning(plan.returning);
    const result = await qb.execute();
    const rows = result.raw as Record_[];
    return rows[0] ?? null;
  }

  /** Deletes (or soft-deletes) the row with `id` when it satisfies `conditions`; false when none matched. */
  async delete(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<boolean> {
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    if (plan.model.softDelete) {
      const result = await this.dataSource
        .createQueryBuilder()
        .update(plan.metadata.target)
        .set({ deleted_at: () => 'CURRENT_TIMESTAMP' } as ObjectLiteral)
        .where(this.matchSql(root, id, conditions, sql, 'live'))
        .setParameters(sql.params)
        .returning(plan.primaryKeyColumn)
        .execute();
      return (result.raw as unknown[]).length > 0;
    }
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(plan.metadata.target)
      .where(this.matchSql(root, id, conditions, sql, 'any'))
      .setParameters(sql.params)
      .returning(plan.primaryKeyColumn)
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  /** Clears `deleted_at` of a soft-deleted row; null when no deleted row matched. */
  async recover(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<Record_ | null> {
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    const result = await this.dataSource
      .createQueryBuilder()
      .update(plan.metadata.target)
      .set({ deleted_at: null } as ObjectLiteral)
      .where(this.matchSql(root, id, conditions, sql, 'deleted'))
      .setParameters(sql.params)
      .returning(plan.returning)
      .execute();
    return (result.raw as Record_[])[0] ?? null;
  }

  /** `update()`, also returning the row as it was before (for domain events). Still one statement. */
  async updateTracked(
    plan: EntityPlan,
    id: string | number,
    values: Record_,
    conditions: readonly RootCondition[],
    replace: Replace,
  ): Promise<WriteChange | null> {
    const deleted = plan.model.softDelete ? 'live' : 'any';
    const set = writableValues(plan, values, replace);
    if (Object.keys(set).length === 0) {
      const row = await this.current(plan, id, conditions);
      return row ? { record: row, previous: row } : null;
    }
    return this.trackedUpdate(plan, id, set, conditions, deleted);
  }

  /**
   * The row an update with nothing to write (`PATCH {}`) would have changed, read under the same
   * conditions, so that it answers like an update: the row, or null when the caller may not update it.
   */
  private async current(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<Record_ | null> {
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    const row = await this.dataSource
      .createQueryBuilder()
      .select(plan.returning)
      .from(plan.metadata.target, plan.metadata.tableName)
      .withDeleted()
      .where(this.matchSql(root, id, conditions, sql, plan.model.softDelete ? 'live' : 'any'))
      .setParameters(sql.params)
      .getRawOne<Record_>();
    return row ?? null;
  }

  /** `delete()`, returning the removed (or soft-deleted) row and the row before; null when none matched. */
  async deleteTracked(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<WriteChange | null> {
    if (plan.model.softDelete) {
      return this.trackedUpdate(plan, id, { deleted_at: () => 'CURRENT_TIMESTAMP' }, conditions, 'live');
    }
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(plan.metadata.target)
      .where(this.matchSql(root, id, conditions, sql, 'any'))
      .setParameters(sql.params)
      .returning(plan.returning)
      .execute();
    const row = (result.raw as Record_[])[0];
    return row ? { record: row, previous: row } : null;
  }

  /** `recover()`, also returning the row as it was before; null when no deleted row matched. */
  async recoverTracked(plan: EntityPlan, id: string | number, conditions: readonly RootCondition[]): Promise<WriteChange | null> {
    return this.trackedUpdate(plan, id, { deleted_at: null }, conditions, 'deleted');
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
    set: Record_,
    conditions: readonly RootCondition[],
    deleted: 'live' | 'deleted' | 'any',
  ): Promise<WriteChange | null> {
    const sql = this.sqlContext();
    const root: AliasedEntity = { alias: plan.table, plan };
    const escape = (name: string) => this.dataSource.driver.escape(name);
    const previous = escape(PREVIOUS_CTE);
    const columns = plan.visibleColumns;
    const select =
      `SELECT ${columns.map((column) => `${plan.column(column.name)} AS ${escape(column.name)}`).join(', ')} ` +
      `FROM ${plan.table} WHERE ${this.matchSql(root, id, conditions, sql, deleted)} FOR UPDATE`;
    const previousColumns = columns.map(
      (column) => `(SELECT ${previous}.${escape(column.name)} FROM ${previous}) AS ${escape(PREVIOUS_PREFIX + column.name)}`,
    );
    const result = await this.dataSource
      .createQueryBuilder()
      .update(plan.metadata.target)
      .addCommonTableExpression(select, PREVIOUS_CTE)
      .set(set as ObjectLiteral)
      .where(`${plan.table}.${plan.primaryKeyColumn} IN (SELECT ${previous}.${escape(plan.primaryKey.name)} FROM ${previous})`)
      .setParameters(sql.params)
      .returning([plan.returning, ...previousColumns].join(', '))
      .execute();
    const row = (result.raw as Record_[])[0];
    if (!row) return null;
    const record: Record_ = {};
    const before: Record_ = {};
    for (const column of columns) {
      record[column.name] = row[column.name];
      before[column.name] = row[PREVIOUS_PREFIX + column.name];
    }
    return { record, previous: before };
  }

  private matchSql(
    root: AliasedEntity,
    id: string | number,
    conditions: readonly RootCondition[],
    sql: SqlContext,
    deleted: 'live' | 'deleted' | 'any',
  ): string {
    const parts = [`${root.alias}.${root.plan.primaryKeyColumn} = ${sql.param(id)}`];
    if (deleted !== 'any') {
      parts.push(`${root.alias}.${root.plan.column('deleted_at')} IS ${deleted === 'live' ? 'NULL' : 'NOT NULL'}`);
    }
    for (const condition of conditions) parts.push(condition(root, sql));
    return parts.join(' AND ');
  }

  private sqlContext(): SqlContext {
    return new SqlContext(this.plans, (name) => this.dataSource.driver.escape(name));
  }
}

/** The body's values for writable columns only; with `fillDefaults`, omitted ones become DEFAULT. */
function writableValues(plan: EntityPlan, body: Record_, replace: Replace): Record_ {
  const values: Record_ = {};
  for (const { model: column } of plan.writableColumns) {
    if (body[column.name] !== undefined) values[column.name] = body[column.name];
    else if (replace === true || (replace instanceof Set && !replace.has(column.name))) values[column.name] = DEFAULT_VALUE;
  }
  return values;
}
