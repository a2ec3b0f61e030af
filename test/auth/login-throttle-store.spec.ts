/** The default LoginThrottleStore: fixed windows per key, take-backs, and bounded memory. */
import { InMemoryLoginThrottleStore } from '@svc/nest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('InMemoryLoginThrottleStore', () => {
  it('counts attempts per key within a window, takes one back, and forgets a key on reset', async () => {
    const store = new InMemoryLoginThrottleStore();
    expect(await store.hit('ip:a', 60_000)).toEqual({ count: 1, retryAfterSeconds: 60 });
    expect((await store.hit('ip:a', 60_000)).count).toBe(2);
    expect((await store.hit('ip:b', 60_000)).count).toBe(1);
    await store.undo('ip:a');
    expect((await store.hit('ip:a', 60_000)).count).toBe(2);
    await store.reset('ip:a');
    expect((await store.hit('ip:a', 60_000)).count).toBe(1);
  });

  it('starts a key over once its window has passed', async () => {
    const store = new InMemoryLoginThrottleStore();
    await store.hit('account:x', 50);
    await store.hit('account:x', 50);
    await sleep(80);
    expect((await store.hit('account:x', 50)).count).toBe(1);
  });

  it('keeps at most maxEntries keys, dropping the oldest windows first', async () => {
    const store = new InMemoryLoginThrottleStore(100);
    for (let i = 0; i < 1000; i++) await store.hit(`ip:${i}`, 60_000);
    expect(store.size).toBeLessThanOrEqual(100);
    // The newest key is still counted.
    expect((await store.hit('ip:999', 60_000)).count).toBe(2);
  });
});
