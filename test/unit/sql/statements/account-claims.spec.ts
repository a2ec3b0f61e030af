/** The statements on `svc_account_claims`: which organization may add an account it created. */
import { SvcAccountClaim } from '../../../../lib/scope/account-claim.entity';
import { accountClaim, deleteAccountClaims, insertAccountClaims } from '../../../../lib/sql/statements/account-claims';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

describe('Account claim statements', () => {
  let db: RecordedDatabase;
  beforeAll(async () => {
    db = await recordedDatabase();
  });

  it('insert (a claimed account keeps its first claim), use up, and the claim of one organization within the TTL', () => {
    const t = db.executor.table(SvcAccountClaim);
    expect(insertAccountClaims(t, ['4', '5'], '7')).toEqual({
      text: 'INSERT INTO "svc_account_claims" ("userId", "organizationId") SELECT u, $2 FROM unnest($1::text[]) AS c(u) ON CONFLICT ("userId") DO NOTHING',
      values: [['4', '5'], '7'],
    });
    expect(deleteAccountClaims(t, ['4'])).toEqual({ text: 'DELETE FROM "svc_account_claims" WHERE "userId" = ANY($1::text[])', values: [['4']] });
    expect(accountClaim(t, '4', '7', 604800)).toEqual({
      text:
        'SELECT 1 FROM "svc_account_claims" WHERE "userId" = $1 AND "organizationId" = $2 ' +
        'AND "created_at" > CURRENT_TIMESTAMP - make_interval(secs => $3)',
      values: ['4', '7', 604800],
    });
  });
});
