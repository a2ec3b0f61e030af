import type { SvcThrottlerStorage, ThrottlerStorageRecord } from './svc-throttler-storage';

/** One key's window, linked into the queue of its kind (open or locked), oldest first. */
interface Entry {
  readonly key: string;
  hits: number;
  limit: number;
  readonly windowEndsAt: number;
  /** When the key's block ends; 0 while it is not blocked. */
  blockEndsAt: number;
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

/** When the entry is over: its block's end when blocked, else its window's. */
function endOf(entry: Entry): number {
  return entry.blockEndsAt > 0 ? entry.blockEndsAt : entry.windowEndsAt;
}

function secondsUntil(time: number, now: number): number {
  return Math.max(1, Math.ceil((time - now) / 1000));
}

/**
 * The default {@link SvcThrottlerStorage}: counters in this process, so with N instances a client
 * gets up to N times the limits. Memory is bounded: at most `maxEntries` keys are kept, whatever a
 * flood of new keys (junk logins from fresh e-mails, fresh addresses) brings. Keys under their
 * limit wait in one queue, keys at or past it (lockouts) in another. A new key takes the room of the
 * oldest key under its limit, in constant time; a lockout is never dropped before it ends, so when
 * only lockouts remain, a new key is refused (blocked) until the oldest one ends.
 */
export class InMemoryThrottlerStorage implements SvcThrottlerStorage {
  private readonly entries = new Map<string, Entry>();
  private readonly open = new EntryQueue();
  private readonly locked = new EntryQueue();
  private sweeper: Iterator<Entry> = this.entries.values();

  constructor(private readonly maxEntries: number = DEFAULT_MAX_ENTRIES) {}

  /** Keys currently held (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    this.sweep(now);
    const id = `${throttlerName}:${key}`;
    let entry = this.live(id, now);
    if (!entry) {
      if (!this.makeRoom(now)) {
        const wait = secondsUntil(endOf(this.locked.head!), now);
        return { totalHits: 0, timeToExpire: wait, isBlocked: true, timeToBlockExpire: wait };
      }
      entry = { key: id, hits: 0, limit, windowEndsAt: now + ttl, blockEndsAt: 0, locked: false, prev: null, next: null };
      this.entries.set(id, entry);
      this.open.append(entry);
    }
    entry.limit = limit;
    if (entry.blockEndsAt === 0) {
      entry.hits++;
      if (entry.hits > limit) entry.blockEndsAt = blockDuration > 0 ? now + blockDuration : entry.windowEndsAt;
    }
    this.place(entry);
    const blocked = entry.blockEndsAt > 0;
    return {
      totalHits: entry.hits,
      timeToExpire: secondsUntil(entry.windowEndsAt, now),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? secondsUntil(entry.blockEndsAt, now) : 0,
    };
  }

  async decrement(key: string, throttlerName: string): Promise<void> {
    const entry = this.live(`${throttlerName}:${key}`, Date.now());
    if (!entry || entry.blockEndsAt > 0) return;
    entry.hits--;
    if (entry.hits <= 0) this.delete(entry);
    else this.place(entry);
  }

  async reset(key: string, throttlerName: string): Promise<void> {
    const entry = this.entries.get(`${throttlerName}:${key}`);
    if (entry) this.delete(entry);
  }

  /** Moves the entry to the queue its state puts it in. */
  private place(entry: Entry): void {
    const locked = entry.blockEndsAt > 0 || entry.hits >= entry.limit;
    if (locked === entry.locked) return;
    (entry.locked ? this.locked : this.open).remove(entry);
    entry.locked = locked;
    (locked ? this.locked : this.open).append(entry);
  }

  /** Room for one more key: entries over at the queues' heads go, then the oldest key under its limit. */
  private makeRoom(now: number): boolean {
    if (this.entries.size < this.maxEntries) return true;
    for (const queue of [this.open, this.locked]) {
      while (queue.head && endOf(queue.head) <= now && this.entries.size >= this.maxEntries) this.delete(queue.head);
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

  /** The entry of `id` unless it is over (its window, or its block, has ended: the key starts over). */
  private live(id: string, now: number): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && endOf(entry) <= now) {
      this.delete(entry);
      return undefined;
    }
    return entry;
  }

  /**
   * Looks at a few more entries for ones that are over, resuming where the last hit stopped: windows
   * of different lengths do not end in queue order, so the queues' heads alone may leave some behind.
   */
  private sweep(now: number): void {
    for (let i = 0; i < SWEEP_STEP; i++) {
      let step = this.sweeper.next();
      if (step.done) {
        this.sweeper = this.entries.values();
        step = this.sweeper.next();
        if (step.done) return;
      }
      if (endOf(step.value) <= now) this.delete(step.value);
    }
  }
}
