/** The statements of logins and sessions on the app's own user, membership and session entities (tenancy app). */
import { SvcIdentityService } from '../../../../lib/auth/identity/identity.service';
import { SvcRefreshTokenStore } from '../../../../lib/auth/sessions/refresh-token.store';
import { WriteExecutor } from '../../../../lib/sql/write.executor';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

describe('Identity statements', () => {
  let db: RecordedDatabase;
  let identity: SvcIdentityService;
  beforeAll(async () => {
    db = await recordedDatabase();
    const refreshTokens = new SvcRefreshTokenStore(db.executor);
    identity = new SvcIdentityService(db.executor, db.plans, new WriteExecutor(db.executor, db.plans), refreshTokens, db.model);
  });
  beforeEach(() => db.answer(() => []));

  it('a user by e-mail or id, and the memberships of a user', async () => {
    await identity.userByEmail(' Ann@Example.com ');
    await identity.userById('11');
    await identity.memberships('11');
    expect(db.take()).toMatchSnapshot();
  });

  it('a rehashed password', async () => {
    await identity.replacePasswordHash('11', '$argon2id$hash');
    expect(db.take()).toMatchSnapshot();
  });

  it('a live session, a revoked session, and every session of a user but one', async () => {
    await identity.sessionLive('5');
    await identity.revokeSession('5');
    await identity.revokeUserSessions('11', '5');
    await identity.revokeUserSessions('11');
    expect(db.take()).toMatchSnapshot();
  });

  it('a key that no row can have sends nothing', async () => {
    await identity.userById('not-a-number');
    await identity.revokeSession('99999999999');
    expect(db.take()).toEqual([]);
  });
});
