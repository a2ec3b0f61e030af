import type { EntityPlan } from '../entity-plan';
import type { SqlContext } from '../sql-context';
import type { Statement } from '../statement';

/**
 * Revokes rows of `auth.sessionEntity` matched by `where`: sets `revokedField` (with TypeORM's update
 * assignments) on the live ones when the entity has it, deletes them otherwise.
 */
function revokeSessions(sql: SqlContext, plan: EntityPlan, where: string[], revokedField: string | undefined): Statement {
  if (revokedField === undefined) return sql.statement(`DELETE FROM ${plan.table} WHERE ${where.join(' AND ')}`);
  const set = [`${plan.column(revokedField)} = CURRENT_TIMESTAMP`, ...plan.onUpdate].join(', ');
  return sql.statement(`UPDATE ${plan.table} SET ${set} WHERE ${[...where, `${plan.column(revokedField)} IS NULL`].join(' AND ')}`);
}

/** Revokes one session (a logout). */
export function revokeSession(sql: SqlContext, plan: EntityPlan, id: unknown, revokedField: string | undefined): Statement {
  const match = `${plan.primaryKeyColumn} = ${sql.param(id)}`;
  if (revokedField === undefined) return sql.statement(`DELETE FROM ${plan.table} WHERE ${match}`);
  return sql.statement(
    `UPDATE ${plan.table} SET ${[`${plan.column(revokedField)} = CURRENT_TIMESTAMP`, ...plan.onUpdate].join(', ')} WHERE ${match}`,
  );
}

/** Which sessions of a user to revoke: the owner field and the user, and the session to keep (compared as text). */
export interface SessionsOfUser {
  readonly ownerField: string;
  readonly user: unknown;
  readonly keep: string | null;
  readonly revokedField: string | undefined;
}

/** Revokes every session of a user, except `keep` (the caller's own, on a password change). */
export function revokeSessionsOfUser(sql: SqlContext, plan: EntityPlan, sessions: SessionsOfUser): Statement {
  const where = [`${plan.column(sessions.ownerField)} = ${sql.param(sessions.user)}`];
  if (sessions.keep !== null) where.push(`${plan.primaryKeyColumn}::text <> ${sql.param(sessions.keep)}`);
  return revokeSessions(sql, plan, where, sessions.revokedField);
}
