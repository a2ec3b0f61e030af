/** The statements on `svc_invitations`. */
import { SvcInvitationStore } from '../../../../lib/auth/invitations/invitation.store';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

const invitation = {
  id: 'i1',
  organizationId: '7',
  email: 'a@example.com',
  role: 'member',
  invitedBy: '11',
  expires_at: new Date(0),
  created_at: new Date(0),
};

describe('Invitation statements', () => {
  let db: RecordedDatabase;
  let store: SvcInvitationStore;
  beforeAll(async () => {
    db = await recordedDatabase();
    store = new SvcInvitationStore(db.executor);
  });

  it('insert, pending, revoke, find pending, claim and accepted-by', async () => {
    db.answer(() => [invitation]);
    const expiresAt = new Date(Date.UTC(2030, 0, 1));
    await store.insert({ organizationId: '7', email: 'a@example.com', role: 'member', hash: 'h', invitedBy: '11', expiresAt });
    await store.pending('7');
    await store.revoke('i1', '7');
    await store.findPending('h');
    await store.claim('h', undefined as never);
    await store.acceptedBy('i1', '12', undefined as never);
    expect(db.take()).toMatchSnapshot();
  });
});
