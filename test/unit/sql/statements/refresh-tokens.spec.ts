/** The statements on `svc_refresh_tokens`: rotation, reuse detection, revocation. */
import { SvcRefreshTokenStore } from '../../../../lib/auth/sessions/refresh-token.store';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

describe('Refresh token statements', () => {
  let db: RecordedDatabase;
  let store: SvcRefreshTokenStore;
  beforeAll(async () => {
    db = await recordedDatabase();
    store = new SvcRefreshTokenStore(db.executor);
  });

  it('issue, claim (one conditional UPDATE) and find', async () => {
    db.answer(() => [{ jti: 'j1', family: 'f', userId: '11', organizationId: '7', sessionId: 's' }]);
    await store.issue({ family: 'f', userId: '11', organizationId: '7', sessionId: 's', expiresAt: new Date(Date.UTC(2030, 0, 1)) });
    await store.claim('j1');
    await store.find('j1');
    expect(db.take()).toMatchSnapshot();
  });

  it('revocation of a family, a session, a user, and a user except one session', async () => {
    await store.revokeFamily('f');
    await store.revokeSession('s');
    await store.revokeUser('11', null);
    await store.revokeUser('11', 's');
    expect(db.take()).toMatchSnapshot();
  });
});
