/** The statements on `svc_idempotency_keys`. */
import { SvcIdempotencyStore } from '../../../../lib/idempotency/idempotency.store';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

describe('Idempotency key statements', () => {
  let db: RecordedDatabase;
  let store: SvcIdempotencyStore;
  beforeAll(async () => {
    db = await recordedDatabase();
    store = new SvcIdempotencyStore(db.executor);
  });

  it('claim (one INSERT ... ON CONFLICT), find, complete, release and purge', async () => {
    db.answer(() => [{ key: 'k', deleted: 2 }]);
    await expect(store.claim('user:11', 'k', 'f')).resolves.toBe(true);
    await store.find('user:11', 'k');
    await store.complete('user:11', 'k', 201, { id: 1 });
    await store.release('user:11', 'k');
    await expect(store.purgeExpired()).resolves.toBe(2);
    expect(db.take()).toMatchSnapshot();
  });
});
