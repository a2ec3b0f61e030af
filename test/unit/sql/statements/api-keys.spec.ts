/** The statements on `svc_api_keys`, as `svc keys` and API-key logins send them. */
import { createApiKey, findApiKey, hashApiKey, listApiKeys, revokeApiKey } from '../../../../lib/auth/api-keys/api-keys';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

const ID = '0b7e1c8a-5a57-4d3e-9d1a-2f4c3b2a1e0d';
const row = { id: ID, name: 'ci', prefix: 'tk_abcdef', roles: ['a'], organizationId: null, created_at: new Date(0), revoked_at: null };

describe('API key statements', () => {
  let db: RecordedDatabase;
  beforeAll(async () => {
    db = await recordedDatabase();
  });

  it('create: one INSERT of the hash, returning the listed fields', async () => {
    db.answer(() => [row]);
    await createApiKey(db.executor, 'tk', { name: ' ci ', roles: ['a', ' b', 'a', ''], organizationId: '7' });
    const [statement] = db.take();
    expect(statement.text).toMatchSnapshot();
    expect(statement.values).toEqual(['ci', expect.stringMatching(/^tk_[\w-]{6}$/), expect.stringMatching(/^[0-9a-f]{64}$/), ['a', 'b'], '7']);
  });

  it('list, revoke and find by hash', async () => {
    db.answer(() => [{ ...row, hash: hashApiKey('tk_secret') }]);
    await listApiKeys(db.executor);
    await revokeApiKey(db.executor, ID);
    await findApiKey(db.executor, 'tk_secret');
    expect(db.take()).toMatchSnapshot();
  });

  it('revoking an id that is no uuid sends nothing', async () => {
    await expect(revokeApiKey(db.executor, 'nope')).resolves.toBe(false);
    expect(db.take()).toEqual([]);
  });
});
