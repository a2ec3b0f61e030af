/** Injection token of the {@link LoginThrottleStore}; override it to share counters between instances. */
export const SVC_LOGIN_THROTTLE_STORE = Symbol('svc:login_throttle_store');

/** Attempts counted under one key in its current window. */
export interface LoginThrottleCount {
  /** Attempts in the window, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/**
 * Counters of login attempts, one per key (`ip:<address>`, `account:<digest>`). A window starts
 * at a key's first attempt and lasts `windowMs`; then the key starts over. Implementations must
 * make `hit` atomic per key (a Redis one: `INCR`, then `PEXPIRE ... NX`).
 */
export interface LoginThrottleStore {
  /** Counts one attempt under `key`. */
  hit(key: string, windowMs: number): Promise<LoginThrottleCount>;
  /** Takes one attempt back (it turned out not to be a failure). */
  undo(key: string): Promise<void>;
  /** Forgets `key` (a successful login clears its account's failures). */
  reset(key: string): Promise<void>;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/** Entries kept at most; past it the oldest windows are dropped first. */
const DEFAULT_MAX_ENTRIES = 100_000;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The default store: counters in this process, so with N instances an attacker gets up to N times
 * the limits. Memory is bounded: expired windows are swept at most once a minute, and at most
 * `maxEntries` keys are kept.
 */
export class InMemoryLoginThrottleStore implements LoginThrottleStore {
  private readonly entries = new Map<string, Entry>();
  private nextSweep = 0;

  constructor(private readonly maxEntries: number = DEFAULT_MAX_ENTRIES) {}

  /** Keys currently held (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, windowMs: number): Promise<LoginThrottleCount> {
    const now = Date.now();
    this.sweep(now);
    let entry = this.live(key, now);
    if (!entry) {
      entry = { count: 0, expiresAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count++;
    return { count: entry.count, retryAfterSeconds: Math.max(1, Math.ceil((entry.expiresAt - now) / 1000)) };
  }

  async undo(key: string): Promise<void> {
    const entry = this.live(key, Date.now());
    if (!entry) return;
    entry.count--;
    if (entry.count <= 0) this.entries.delete(key);
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep && this.entries.size < this.maxEntries) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Still full: drop the oldest windows (a Map iterates in insertion order).
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
