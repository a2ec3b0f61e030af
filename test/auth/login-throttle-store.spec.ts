/** The default LoginThrottleStore: fixed windows per key, take-backs, and bounded memory that keeps lockouts. */
import { InMemoryLoginThrottleStore } from '@svc/nest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('InMemoryLoginThrottleStore', () => {
  it('counts attempts per key within a window, takes one back, and forgets a key on reset', async () => {
    const store = new InMemoryLoginThrottleStore();
    expect(await store.hit('ip:a', 60_000, 10)).toEqual({ count: 1, retryAfterSeconds: 60, blocked: false });
    expect((await store.hit('ip:a', 60_000, 10)).count).toBe(2);
    expect((await store.hit('ip:b', 60_000, 10)).count).toBe(1);
    await store.undo('ip:a');
    expect((await store.hit('ip:a', 60_000, 10)).count).toBe(2);
    await store.reset('ip:a');
    expect((await store.hit('ip:a', 60_000, 10)).count).toBe(1);
  });

  it('blocks a key past its limit', async () => {
    const store = new InMemoryLoginThrottleStore();
    for (let i = 0; i < 3; i++) expect((await store.hit('account:x', 60_000, 3)).blocked).toBe(false);
    expect(await store.hit('account:x', 60_000, 3)).toEqual({ count: 4, retryAfterSeconds: 60, blocked: true });
  });

  it('starts a key over once its window has passed', async () => {
    const store = new InMemoryLoginThrottleStore();
    await store.hit('account:x', 50, 10);
    await store.hit('account:x', 50, 10);
    await sleep(80);
    expect((await store.hit('account:x', 50, 10)).count).toBe(1);
  });

  it('keeps at most maxEntries keys, dropping the oldest windows under their limit first', async () => {
    const store = new InMemoryLoginThrottleStore(100);
    for (let i = 0; i < 1000; i++) await store.hit(`ip:${i}`, 60_000, 10);
    expect(store.size).toBe(100);
    // The newest key is still counted.
    expect((await store.hit('ip:999', 60_000, 10)).count).toBe(2);
    // The oldest is gone.
    expect((await store.hit('ip:0', 60_000, 10)).count).toBe(1);
  });

  it('never drops a key at or past its limit: a flood of new keys leaves every lockout in place', async () => {
    const store = new InMemoryLoginThrottleStore(100);
    for (let i = 0; i < 3; i++) await store.hit('account:victim', 60_000, 3);
    for (let i = 0; i < 10_000; i++) await store.hit(`account:junk-${i}`, 60_000, 3);
    expect(store.size).toBe(100);
    expect(await store.hit('account:victim', 60_000, 3)).toMatchObject({ count: 4, blocked: true });
  });

  it('refuses new keys once only lockouts remain, and takes them again when a lockout ends', async () => {
    const store = new InMemoryLoginThrottleStore(50);
    for (let i = 0; i < 50; i++) {
      for (let n = 0; n < 2; n++) await store.hit(`account:locked-${i}`, i === 0 ? 300 : 60_000, 2);
    }
    const refused = await store.hit('account:new', 60_000, 2);
    expect(refused).toEqual({ count: 0, retryAfterSeconds: 1, blocked: true });
    expect(store.size).toBe(50);
    // Every lockout still holds.
    for (let i = 1; i < 50; i++) expect((await store.hit(`account:locked-${i}`, 60_000, 2)).blocked).toBe(true);
    // A lockout that ends makes room.
    await sleep(350);
    expect(await store.hit('account:new', 60_000, 2)).toMatchObject({ count: 1, blocked: false });
  });

  it('makes a key evictable again when take-backs bring it under its limit', async () => {
    const store = new InMemoryLoginThrottleStore(10);
    await store.hit('account:a', 60_000, 2);
    await store.hit('account:a', 60_000, 2);
    for (let i = 0; i < 9; i++) {
      await store.hit(`account:other-${i}`, 60_000, 1);
    }
    // Full of lockouts: refused.
    expect((await store.hit('account:new-1', 60_000, 1)).blocked).toBe(true);
    await store.undo('account:a');
    expect(await store.hit('account:new-1', 60_000, 1)).toMatchObject({ count: 1, blocked: false });
    expect(store.size).toBe(10);
    // account:a, the one key under its limit, made the room; the rest are lockouts, so it is now refused as new.
    expect(await store.hit('account:a', 60_000, 2)).toEqual({ count: 0, retryAfterSeconds: 60, blocked: true });
  });

  it('forgets an expired window wherever it sits in the queues, a few entries per hit', async () => {
    const store = new InMemoryLoginThrottleStore(1000);
    for (let i = 0; i < 50; i++) await store.hit(`account:before-${i}`, 60_000, 5);
    await store.hit('account:short', 20, 5);
    for (let i = 0; i < 50; i++) await store.hit(`account:after-${i}`, 60_000, 5);
    await sleep(40);
    for (let i = 0; i < 100; i++) await store.hit(`account:later-${i}`, 60_000, 5);
    expect(store.size).toBe(200);
  });
});
