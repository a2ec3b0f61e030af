/** The default throttler storage: fixed windows per key, blocks, take-backs, and bounded memory that keeps lockouts. */
import { InMemoryThrottlerStorage } from '@svc/nest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NAME = 'login';

/** One hit as the login throttle counts it: blocked past `limit` for a window. */
const hit = (store: InMemoryThrottlerStorage, key: string, windowMs: number, limit: number) => store.increment(key, windowMs, limit, windowMs, NAME);

describe('InMemoryThrottlerStorage', () => {
  it('counts hits per key within a window, takes one back, and forgets a key on reset', async () => {
    const store = new InMemoryThrottlerStorage();
    expect(await hit(store, 'ip:a', 60_000, 10)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect((await hit(store, 'ip:a', 60_000, 10)).totalHits).toBe(2);
    expect((await hit(store, 'ip:b', 60_000, 10)).totalHits).toBe(1);
    await store.decrement('ip:a', NAME);
    expect((await hit(store, 'ip:a', 60_000, 10)).totalHits).toBe(2);
    await store.reset('ip:a', NAME);
    expect((await hit(store, 'ip:a', 60_000, 10)).totalHits).toBe(1);
  });

  it('counts each throttler name apart', async () => {
    const store = new InMemoryThrottlerStorage();
    await store.increment('ip:a', 60_000, 10, 60_000, 'rl');
    await store.increment('ip:a', 60_000, 10, 60_000, 'rl');
    expect((await hit(store, 'ip:a', 60_000, 10)).totalHits).toBe(1);
    await store.reset('ip:a', NAME);
    expect((await store.increment('ip:a', 60_000, 10, 60_000, 'rl')).totalHits).toBe(3);
  });

  it('blocks a key past its limit for the block duration, counts no blocked hit, then starts the key over', async () => {
    const store = new InMemoryThrottlerStorage();
    for (let i = 0; i < 3; i++) expect((await hit(store, 'account:x', 60_000, 3)).isBlocked).toBe(false);
    expect(await hit(store, 'account:x', 60_000, 3)).toEqual({ totalHits: 4, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 });
    expect(await hit(store, 'account:x', 60_000, 3)).toMatchObject({ totalHits: 4, isBlocked: true });
    await store.decrement('account:x', NAME);
    expect((await hit(store, 'account:x', 60_000, 3)).isBlocked).toBe(true);

    for (let i = 0; i < 2; i++) await store.increment('ip:y', 10_000, 1, 100, NAME);
    await sleep(150);
    expect(await store.increment('ip:y', 10_000, 1, 100, NAME)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('starts a key over once its window has passed', async () => {
    const store = new InMemoryThrottlerStorage();
    await hit(store, 'account:x', 50, 10);
    await hit(store, 'account:x', 50, 10);
    await sleep(80);
    expect((await hit(store, 'account:x', 50, 10)).totalHits).toBe(1);
  });

  it('keeps at most maxEntries keys, dropping the oldest windows under their limit first', async () => {
    const store = new InMemoryThrottlerStorage(100);
    for (let i = 0; i < 1000; i++) await hit(store, `ip:${i}`, 60_000, 10);
    expect(store.size).toBe(100);
    // The newest key is still counted.
    expect((await hit(store, 'ip:999', 60_000, 10)).totalHits).toBe(2);
    // The oldest is gone.
    expect((await hit(store, 'ip:0', 60_000, 10)).totalHits).toBe(1);
  });

  it('never drops a key at or past its limit: a flood of new keys leaves every lockout in place', async () => {
    const store = new InMemoryThrottlerStorage(100);
    for (let i = 0; i < 3; i++) await hit(store, 'account:victim', 60_000, 3);
    for (let i = 0; i < 10_000; i++) await hit(store, `account:junk-${i}`, 60_000, 3);
    expect(store.size).toBe(100);
    expect(await hit(store, 'account:victim', 60_000, 3)).toMatchObject({ totalHits: 4, isBlocked: true });
  });

  it('stays at its default bound of 100,000 keys through 200,000 junk keys, the rate limit\'s and the lockout\'s kept', async () => {
    const store = new InMemoryThrottlerStorage();
    for (let i = 0; i < 3; i++) await hit(store, 'account:victim', 900_000, 3);
    for (let i = 0; i < 5; i++) await store.increment('client', 60_000, 5, 60_000, 'rl');
    for (let i = 0; i < 200_000; i++) await hit(store, `account:junk-${i}`, 900_000, 3);
    expect(store.size).toBe(100_000);
    expect(await hit(store, 'account:victim', 900_000, 3)).toMatchObject({ isBlocked: true });
    expect(await store.increment('client', 60_000, 5, 60_000, 'rl')).toMatchObject({ totalHits: 6, isBlocked: true });
  });

  it('refuses new keys once only lockouts remain, and takes them again when a lockout ends', async () => {
    const store = new InMemoryThrottlerStorage(50);
    for (let i = 0; i < 50; i++) {
      for (let n = 0; n < 2; n++) await hit(store, `account:locked-${i}`, i === 0 ? 300 : 60_000, 2);
    }
    const refused = await hit(store, 'account:new', 60_000, 2);
    expect(refused).toEqual({ totalHits: 0, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1 });
    expect(store.size).toBe(50);
    // Every lockout still holds.
    for (let i = 1; i < 50; i++) expect((await hit(store, `account:locked-${i}`, 60_000, 2)).isBlocked).toBe(true);
    // A lockout that ends makes room.
    await sleep(350);
    expect(await hit(store, 'account:new', 60_000, 2)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('makes a key evictable again when take-backs bring it under its limit', async () => {
    const store = new InMemoryThrottlerStorage(10);
    await hit(store, 'account:a', 60_000, 2);
    await hit(store, 'account:a', 60_000, 2);
    for (let i = 0; i < 9; i++) {
      await hit(store, `account:other-${i}`, 60_000, 1);
    }
    // Full of lockouts: refused.
    expect((await hit(store, 'account:new-1', 60_000, 1)).isBlocked).toBe(true);
    await store.decrement('account:a', NAME);
    expect(await hit(store, 'account:new-1', 60_000, 1)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(store.size).toBe(10);
    // account:a, the one key under its limit, made the room; the rest are lockouts, so it is now refused as new.
    expect(await hit(store, 'account:a', 60_000, 2)).toEqual({ totalHits: 0, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 });
  });

  it('forgets an expired window wherever it sits in the queues, a few entries per hit', async () => {
    const store = new InMemoryThrottlerStorage(1000);
    for (let i = 0; i < 50; i++) await hit(store, `account:before-${i}`, 60_000, 5);
    await hit(store, 'account:short', 20, 5);
    for (let i = 0; i < 50; i++) await hit(store, `account:after-${i}`, 60_000, 5);
    await sleep(40);
    for (let i = 0; i < 100; i++) await hit(store, `account:later-${i}`, 60_000, 5);
    expect(store.size).toBe(200);
  });
});
