/**
 * Runs at most `limit` tasks at once; the others wait in order. Waiting costs the event loop
 * nothing, unlike the CPU the running tasks take.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, so `running` never drops between them.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
