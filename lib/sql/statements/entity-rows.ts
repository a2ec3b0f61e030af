import type { EntityPlan } from '../entity-plan';
import { liveRowSql } from '../predicates';
import type { AliasedEntity, SqlContext } from '../sql-context';
import type { Statement } from '../statement';

/** A condition on the row `alias` refers to, its values bound through the statement's context. */
export type RowCondition = (alias: string, sql: SqlContext) => string;

/**
 * `SELECT 1 FROM <table> <alias> WHERE (<condition>) AND ... LIMIT 1`: whether any row meets every
 * condition (given already built, on `root.alias`).
 */
export function anyRow(sql: SqlContext, root: AliasedEntity, conditions: readonly string[]): Statement {
  return sql.statement(
    `SELECT 1 FROM ${root.plan.table} ${root.alias} WHERE ${conditions.map((condition) => `(${condition})`).join(' AND ')} LIMIT 1`,
  );
}

/**
 * The given columns (none: `1`) of one live row (soft-deleted rows left out, as TypeORM reads) that
 * meets `where`, on the alias `t`.
 */
export function firstLiveRow(sql: SqlContext, plan: EntityPlan, fields: readonly string[], where: RowCondition): Statement {
  const alias = sql.escape('t');
  const live = liveRowSql({ alias, plan });
  const list = fields.length === 0 ? '1' : fields.map((field) => `${alias}.${plan.column(field)}`).join(', ');
  return sql.statement(
    `SELECT ${list} FROM ${plan.table} ${alias} WHERE (${where(alias, sql)})${live === null ? '' : ` AND ${live}`} LIMIT 1`,
  );
}

/**
 * `SELECT <columns> FROM <live rows> WHERE <where> ORDER BY <key> [LIMIT n]`, each column under its
 * field name, as TypeORM selected them (soft-deleted rows left out).
 */
export function liveRowsInKeyOrder(
  sql: SqlContext,
  plan: EntityPlan,
  fields: readonly string[],
  where: RowCondition,
  limit?: number,
): Statement {
  const alias = sql.escape('u');
  const list = fields.map((field) => `${alias}.${plan.column(field)} AS ${sql.escape(field)}`).join(', ');
  const conditions = [where(alias, sql)];
  const live = liveRowSql({ alias, plan });
  if (live !== null) conditions.push(live);
  return sql.statement(
    `SELECT ${list} FROM ${plan.table} ${alias} WHERE ${conditions.map((condition) => `(${condition})`).join(' AND ')}` +
      ` ORDER BY ${alias}.${plan.primaryKeyColumn} ASC${limit === undefined ? '' : ` LIMIT ${sql.param(limit)}`}`,
  );
}

/** The value of one field of the row with this primary key, soft-deleted or not. */
export function fieldOfRow(sql: SqlContext, plan: EntityPlan, field: string, id: unknown): Statement {
  return sql.statement(`SELECT ${plan.column(field)} FROM ${plan.table} WHERE ${plan.primaryKeyColumn} = ${sql.param(id)}`);
}

/** Sets one field of the row with this primary key, with the assignments TypeORM makes on every update. */
export function setFieldOfRow(sql: SqlContext, plan: EntityPlan, field: string, value: unknown, id: unknown): Statement {
  const set = [`${plan.column(field)} = ${sql.param(value)}`, ...plan.onUpdate].join(', ');
  return sql.statement(`UPDATE ${plan.table} SET ${set} WHERE ${plan.primaryKeyColumn} = ${sql.param(id)}`);
}
