import type { EntityPlan } from '../entity-plan';
import { liveRowSql } from '../predicates';
import type { AliasedEntity, SqlContext } from '../sql-context';
import type { Statement } from '../statement';

/** The membership entity (`auth.accountUserEntity`) and its user and organization fields. */
export interface MembershipLinkPlan {
  readonly plan: EntityPlan;
  readonly userField: string;
  readonly organizationField: string;
}

/**
 * One row of three booleans about a user: a live membership in `organization`, one in any other
 * organization, and whether the user (a live row of `users`) exists.
 */
export function membershipState(
  sql: SqlContext,
  link: MembershipLinkPlan,
  users: EntityPlan,
  user: unknown,
  organization: unknown,
): Statement {
  const memberships = link.plan;
  const m = sql.escape('m');
  const u = sql.escape('u');
  const userParam = sql.param(user);
  const organizationParam = sql.param(organization);
  const live = liveRowSql({ alias: m, plan: memberships });
  const userLive = liveRowSql({ alias: u, plan: users });
  const membershipsWhere = `${m}.${memberships.column(link.userField)} = ${userParam}${live === null ? '' : ` AND ${live}`}`;
  const organizationColumn = `${m}.${memberships.column(link.organizationField)}`;
  return sql.statement(
    `SELECT EXISTS (SELECT 1 FROM ${memberships.table} ${m} WHERE ${membershipsWhere} AND ${organizationColumn} = ${organizationParam}), ` +
      `EXISTS (SELECT 1 FROM ${memberships.table} ${m} WHERE ${membershipsWhere} AND ${organizationColumn} <> ${organizationParam}), ` +
      `EXISTS (SELECT 1 FROM ${users.table} ${u} WHERE ${u}.${users.primaryKeyColumn} = ${userParam}${userLive === null ? '' : ` AND ${userLive}`})`,
  );
}

/**
 * The condition that the user row `root` has a membership in `organization` (`in`), or none in any
 * other organization (`outside`): an `EXISTS` over the membership entity.
 */
export function membershipConditionSql(
  sql: SqlContext,
  root: AliasedEntity,
  link: MembershipLinkPlan,
  organization: unknown,
  where: 'in' | 'outside',
): string {
  const [exists, compare] = where === 'in' ? ['EXISTS', '='] : ['NOT EXISTS', '<>'];
  const plan = link.plan;
  const alias = sql.alias('m');
  return (
    `${exists} (SELECT 1 FROM ${plan.table} ${alias} WHERE ${alias}.${plan.column(link.userField)} = ` +
    `${root.alias}.${root.plan.primaryKeyColumn} AND ${alias}.${plan.column(link.organizationField)} ${compare} ${sql.param(organization)})`
  );
}
