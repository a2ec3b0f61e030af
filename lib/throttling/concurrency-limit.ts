/**
 * Runs at most `limit` tasks at once; the others wait in order, for as long as they are allowed to.
 * Waiting costs the event loop nothing, unlike the CPU the running tasks take.
 */
export class ConcurrencyLimit {
  private running = 0;
  /** Insertion-ordered, so the first waiter is served first and one that gives up leaves in O(1). */
  private readonly waiting = new Set<() => void>();

  constructor(readonly limit: number) {}

  /** Nothing running and nobody waiting: a keyed owner may drop this limit. */
  get idle(): boolean {
    return this.running === 0 && this.waiting.size === 0;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /**
   * Takes a slot, waiting at most `maxWaitMs` for one. True when the slot is held (give it back with
   * `release()`), false when the wait ran out, with nothing held.
   */
  acquire(maxWaitMs = Infinity): Promise<boolean> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve(true);
    }
    if (maxWaitMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const take = (): void => {
        if (timer) clearTimeout(timer);
        resolve(true);
      };
      this.waiting.add(take);
      if (Number.isFinite(maxWaitMs)) {
        timer = setTimeout(() => {
          this.waiting.delete(take);
          resolve(false);
        }, maxWaitMs);
      }
    });
  }

  /** Gives back a slot `acquire()` took. */
  release(): void {
    // Hand the slot straight to the next waiter, so `running` never drops between them.
    const next = this.waiting.values().next();
    if (next.done) {
      this.running--;
      return;
    }
    this.waiting.delete(next.value);
    next.value();
  }
}
