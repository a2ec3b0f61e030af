import type { AuthModel } from '../../schema/model';
import type { EntityPlans } from '../../sql/entity-plan';
import { SqlContext } from '../../sql/sql-context';
import type { SqlExecutor } from '../../sql/sql-executor';
import { revokeSessionsOfUser } from '../../sql/statements/sessions';
import { typedScopeValue } from '../../scope/scope-rules';
import type { SvcRefreshTokenStore } from './refresh-token.store';

/** What revoking a user's sessions touches. */
export interface UserSessions {
  readonly auth: AuthModel | null;
  readonly plans: EntityPlans;
  readonly executor: SqlExecutor;
  readonly refreshTokens: SvcRefreshTokenStore;
}

/**
 * Revokes every refresh token of a user and every row of `auth.sessionEntity` they own, except the
 * session `keep` (the caller's own, on a password change). Access tokens of a revoked session are
 * refused from then on; access tokens without a session live out their (short) lifetime. With
 * `executor` (a transaction's), the revocation commits or rolls back with the write that caused it.
 */
export async function revokeUserSessions(
  sessions: UserSessions,
  userId: string,
  keep: string | null = null,
  executor: SqlExecutor = sessions.executor,
): Promise<void> {
  const auth = sessions.auth;
  if (!auth?.userEntity) return;
  await sessions.refreshTokens.revokeUser(userId, keep, executor);

  if (!auth.sessionEntity) return;
  const plan = sessions.plans.get(auth.sessionEntity);
  const owner = plan.model.relations.find((relation) => relation.kind === 'many-to-one' && relation.target === auth.userEntity);
  if (!owner) return;
  const ownerColumn = plan.model.columns.find((column) => column.name === owner.foreignKey)!;
  const user = typedScopeValue(ownerColumn, userId);
  if (user === null) return;
  const revoked = plan.model.columns.find((column) => column.name === 'revokedAt' || column.name === 'revoked_at');
  const sql = new SqlContext(sessions.plans, (name) => executor.escape(name));
  await executor.records(
    revokeSessionsOfUser(sql, plan, { ownerField: owner.foreignKey, user, keep, revokedField: revoked?.name }),
  );
}
