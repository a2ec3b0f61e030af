/** Injection token of the {@link LoginThrottleStore}; override it to share counters between instances. */
export const SVC_LOGIN_THROTTLE_STORE = Symbol('svc:login_throttle_store');

/** Attempts counted under one key in its current window. */
export interface LoginThrottleCount {
  /** Attempts in the window, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1); for a refused new key, until the store may have room again. */
  retryAfterSeconds: number;
  /** Whether this attempt is refused: past `limit`, or a new key the store has no room for. */
  blocked: boolean;
}

/**
 * Counters of login attempts, one per key (`ip:<address>`, `account:<digest>`, `device:<id>`). A
 * window starts at a key's first attempt and lasts `windowMs`; then the key starts over.
 * Implementations must make `hit` atomic per key (a Redis one: `INCR`, then `PEXPIRE ... NX`), and
 * must never forget a key whose window holds `limit` attempts or more before its window ends: that
 * key is a lockout, and dropping it early would give an attacker `limit` more guesses.
 */
export interface LoginThrottleStore {
  /** Counts one attempt under `key`; `limit` is the attempts the key may make in a window. */
  hit(key: string, windowMs: number, limit: number): Promise<LoginThrottleCount>;
  /** Takes one attempt back (it turned out not to be a failure). */
  undo(key: string): Promise<void>;
  /** Forgets `key` (a successful login clears its account's failures). */
  reset(key: string): Promise<void>;
}

/** One key's window, linked into the queue of its kind (open or locked), oldest first. */
interface Entry {
  readonly key: string;
  count: number;
  limit: number;
  readonly expiresAt: number;
  locked: boolean;
  prev: Entry | null;
  next: Entry | null;
}

/** A doubly linked queue: append, remove and peek at the oldest in O(1). */
class EntryQueue {
  head: Entry | null = null;
  private tail: Entry | null = null;

  append(entry: Entry): void {
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
  }

  remove(entry: Entry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = null;
  }
}

/** Entries kept at most; past it the oldest window under its limit is dropped. */
const DEFAULT_MAX_ENTRIES = 100_000;
/** Entries the sweep looks at per hit: expired windows anywhere in the queues go within maxEntries / 4 hits. */
const SWEEP_STEP = 4;

/**
 * The default store: counters in this process, so with N instances an attacker gets up to N times
 * the limits. Memory is bounded: at most `maxEntries` keys are kept. Keys still under their limit
 * wait in one queue, keys at or past it (lockouts) in another. A new key takes the room of the
 * oldest key under its limit, in constant time; a lockout is never dropped before its window ends,
 * so when only lockouts remain, a new key is refused (`blocked`) until the oldest one expires.
 */
export class InMemoryLoginThrottleStore implements LoginThrottleStore {
  private readonly entries = new Map<string, Entry>();
  private readonly open = new EntryQueue();
  private readonly locked = new EntryQueue();
  private sweeper: Iterator<Entry> = this.entries.values();

  constructor(private readonly maxEntries: number = DEFAULT_MAX_ENTRIES) {}

  /** Keys currently held (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, windowMs: number, limit: number): Promise<LoginThrottleCount> {
    const now = Date.now();
    this.sweep(now);
    let entry = this.live(key, now);
    if (!entry) {
      if (!this.makeRoom(now)) {
        const soonest = this.locked.head!.expiresAt;
        return { count: 0, retryAfterSeconds: secondsUntil(soonest, now), blocked: true };
      }
      entry = { key, count: 0, limit, expiresAt: now + windowMs, locked: false, prev: null, next: null };
      this.entries.set(key, entry);
      this.open.append(entry);
    }
    entry.count++;
    entry.limit = limit;
    this.place(entry);
    return { count: entry.count, retryAfterSeconds: secondsUntil(entry.expiresAt, now), blocked: entry.count > limit };
  }

  async undo(key: string): Promise<void> {
    const entry = this.live(key, Date.now());
    if (!entry) return;
    entry.count--;
    if (entry.count <= 0) this.delete(entry);
    else this.place(entry);
  }

  async reset(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) this.delete(entry);
  }

  /** Moves the entry to the queue its count puts it in. */
  private place(entry: Entry): void {
    const locked = entry.count >= entry.limit;
    if (locked === entry.locked) return;
    (entry.locked ? this.locked : this.open).remove(entry);
    entry.locked = locked;
    (locked ? this.locked : this.open).append(entry);
  }

  /** Room for one more key: expired windows at the queues' heads go, then the oldest key under its limit. */
  private makeRoom(now: number): boolean {
    if (this.entries.size < this.maxEntries) return true;
    for (const queue of [this.open, this.locked]) {
      while (queue.head && queue.head.expiresAt <= now && this.entries.size >= this.maxEntries) this.delete(queue.head);
    }
    if (this.entries.size < this.maxEntries) return true;
    if (!this.open.head) return false;
    this.delete(this.open.head);
    return true;
  }

  private delete(entry: Entry): void {
    (entry.locked ? this.locked : this.open).remove(entry);
    this.entries.delete(entry.key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.delete(entry);
      return undefined;
    }
    return entry;
  }

  /**
   * Looks at a few more entries for expired windows, resuming where the last hit stopped: windows
   * of different lengths do not expire in queue order, so the queues' heads alone may leave some behind.
   */
  private sweep(now: number): void {
    for (let i = 0; i < SWEEP_STEP; i++) {
      let step = this.sweeper.next();
      if (step.done) {
        this.sweeper = this.entries.values();
        step = this.sweeper.next();
        if (step.done) return;
      }
      if (step.value.expiresAt <= now) this.delete(step.value);
    }
  }
}

function secondsUntil(time: number, now: number): number {
  return Math.max(1, Math.ceil((time - now) / 1000));
}
