/** The statements that check a membership written by an administrator (the membership consent). */
import type { AuthContext } from '../../../../lib/interfaces/auth-context.interface';
import { MembershipConsent } from '../../../../lib/scope/membership-consent';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

const owner: AuthContext = { userId: '11', organizationId: '7', workspaceId: null, roles: ['owner'], via: 'jwt' };

describe('Membership statements', () => {
  let db: RecordedDatabase;
  let consent: MembershipConsent;
  beforeAll(async () => {
    db = await recordedDatabase();
    consent = new MembershipConsent(db.model, db.plans, db.executor);
  });

  it('the user a membership links now, and where the user to link is a member', async () => {
    db.answer(({ text }) => (text.startsWith('SELECT EXISTS') ? [[false, false, true]] : [[13]]));
    const membership = db.plans.get('Membership').model;
    await consent.check(membership, { userId: 12 }, { auth: owner, skipScope: false }, 3);
    expect(db.take()).toMatchSnapshot();
  });
});
