import type { EntityTable } from '../entity-table';
import type { Statement } from '../statement';

/** Records that `organizationId`'s administrator created the accounts; an account already claimed keeps its claim. */
export function insertAccountClaims(t: EntityTable, userIds: readonly string[], organizationId: string): Statement {
  return {
    text:
      `INSERT INTO ${t.name} (${t.column('userId')}, ${t.column('organizationId')}) SELECT u, $2 FROM unnest($1::text[]) AS c(u) ` +
      `ON CONFLICT (${t.column('userId')}) DO NOTHING`,
    values: [userIds, organizationId],
  };
}

/** Uses up the claims on the users: they have joined an organization. */
export function deleteAccountClaims(t: EntityTable, userIds: readonly string[]): Statement {
  return { text: `DELETE FROM ${t.name} WHERE ${t.column('userId')} = ANY($1::text[])`, values: [userIds] };
}

/** One row when `organizationId` claimed the account less than `ttlSeconds` ago. */
export function accountClaim(t: EntityTable, userId: string, organizationId: string, ttlSeconds: number): Statement {
  return {
    text:
      `SELECT 1 FROM ${t.name} WHERE ${t.column('userId')} = $1 AND ${t.column('organizationId')} = $2 ` +
      `AND ${t.column('created_at')} > CURRENT_TIMESTAMP - make_interval(secs => $3)`,
    values: [userId, organizationId, ttlSeconds],
  };
}
