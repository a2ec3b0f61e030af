import type { ObjectLiteral } from 'typeorm';
import { typedScopeValue } from '../scope/scope-rules';
import type { SvcRuntime } from '../crud/svc-runtime';
import { SvcRefreshToken } from './auth.entities';

/**
 * Revokes every refresh token of a user and every row of `auth.sessionEntity` they own, except the
 * session `keep` (the caller's own, on a password change). Access tokens of a revoked session are
 * refused from then on; access tokens without a session live out their (short) lifetime.
 */
export async function revokeUserSessions(runtime: SvcRuntime, userId: string, keep: string | null = null): Promise<void> {
  const auth = runtime.model.auth;
  if (!auth?.userEntity) return;
  const tokens = runtime.dataSource
    .createQueryBuilder()
    .update(SvcRefreshToken)
    .set({ revoked_at: () => 'CURRENT_TIMESTAMP' })
    .where('"userId" = :userId AND revoked_at IS NULL', { userId });
  if (keep !== null) tokens.andWhere('("sessionId" IS NULL OR "sessionId" <> :keep)', { keep });
  await tokens.execute();

  if (!auth.sessionEntity) return;
  const plan = runtime.plans.get(auth.sessionEntity);
  const owner = plan.model.relations.find((relation) => relation.kind === 'many-to-one' && relation.target === auth.userEntity);
  if (!owner) return;
  const ownerColumn = plan.model.columns.find((column) => column.name === owner.foreignKey)!;
  const user = typedScopeValue(ownerColumn, userId);
  if (user === null) return;
  const revoked = plan.model.columns.find((column) => column.name === 'revokedAt' || column.name === 'revoked_at');
  const where = [`${plan.column(owner.foreignKey)} = :user`];
  const parameters: Record<string, unknown> = { user };
  if (keep !== null) {
    where.push(`${plan.primaryKeyColumn}::text <> :keep`);
    parameters.keep = keep;
  }
  const qb = runtime.dataSource.createQueryBuilder();
  if (revoked) {
    await qb
      .update(plan.metadata.target)
      .set({ [revoked.name]: () => 'CURRENT_TIMESTAMP' } as ObjectLiteral)
      .where([...where, `${plan.column(revoked.name)} IS NULL`].join(' AND '), parameters)
      .execute();
  } else {
    await qb.delete().from(plan.metadata.target).where(where.join(' AND '), parameters).execute();
  }
}
