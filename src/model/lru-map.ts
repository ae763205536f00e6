/**
 * A Map of at most `capacity` entries (plus pinned ones, see below) that evicts the least
 * recently used in batches, at amortised O(1) cost per call whatever the key distribution.
 *
 * Written here rather than taken from the `lru-cache` package: the tables it serves need
 * what that package does not offer — entries that must not be evicted while in use
 * (`pinned`, moved to the young end instead), a walk of the oldest entries by time for
 * housekeeping (`expire`, which stops at the first young entry instead of scanning all),
 * and a count of the entries each call touched (`work`), which the tests use to prove the
 * cost does not grow with the table. It is a JS Map in use order (a Map iterates in
 * insertion order, so the first key is the oldest) and about a hundred lines.
 *
 * A hit moves its entry to the young end only once it has aged a quarter of the
 * capacity (counted in inserts and moves): the common hit is one lookup, and an entry
 * used within the last `capacity / 4` operations is still in the young quarter, out of
 * reach of a batch eviction, which removes at most `capacity / 8` + 1 from the old end.
 * So an entry is evicted only once at least 7/8 of capacity entries are younger than it,
 * of which at least 5/8 of capacity were set or used after it was last used.
 */
export class LruMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private clock = 0;
  private readonly batch: number;
  private readonly pinned: (value: V) => boolean;
  private readonly now: () => number;
  /** Entries past capacity allowed after an eviction found too few unpinned ones (see `evict`). */
  private slack = 0;
  /** Entries visited by evictions and `expire` so far (moves and deletions). */
  work = 0;
  /** Entries removed to stay within capacity (not those `expire` removed), for the metrics. */
  evicted = 0;

  constructor(
    readonly capacity: number,
    options: {
      /** In use, so not to be evicted: moved to the young end instead. Keep these well under capacity / 2. */
      pinned?: (value: V) => boolean;
      /** The clock of `expire`'s cutoff, in ms. */
      now?: () => number;
    } = {},
  ) {
    if (!(capacity >= 1)) throw new Error(`LruMap capacity must be at least 1, got ${capacity}`);
    this.batch = Math.max(1, Math.floor(capacity / 8));
    this.pinned = options.pinned ?? (() => false);
    this.now = options.now ?? Date.now;
  }

  /** The value of `key`, marking it used. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    if (this.clock - slot.stamp > this.capacity / 4) this.moveYoung(key, slot);
    return slot.value;
  }

  /** The value of `key` without marking it used. */
  peek(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  /** Sets `key` as the most recently used; evicts a batch of the oldest when over capacity. */
  set(key: K, value: V): void {
    this.slots.delete(key);
    this.slots.set(key, { value, stamp: ++this.clock, at: this.now() });
    // Never down to 0: the entry just set stays, whatever the capacity.
    if (this.slots.size > this.capacity + this.slack) this.evict(this.slots.size - Math.max(1, this.capacity - this.batch));
  }

  delete(key: K): boolean {
    return this.slots.delete(key);
  }

  clear(): void {
    this.slots.clear();
  }

  get size(): number {
    return this.slots.size;
  }

  /**
   * Drops the entries last moved before `cutoff` (ms) that `stale` says may go; those
   * still in use move to the young end. Entries are in the order they were last moved,
   * so the walk stops at the first one moved since `cutoff`: its cost is what it drops
   * or moves, never the whole table.
   */
  expire(cutoff: number, stale: (value: V) => boolean): number {
    let dropped = 0;
    const visits = this.slots.size; // a moved entry comes round again; visit each once
    let visited = 0;
    for (const [key, slot] of this.slots) {
      if (slot.at >= cutoff || visited++ >= visits) break;
      this.work++;
      if (!this.pinned(slot.value) && stale(slot.value)) {
        this.slots.delete(key);
        dropped++;
      } else {
        this.moveYoung(key, slot);
      }
    }
    return dropped;
  }

  /**
   * Removes `count` of the oldest unpinned entries, visiting each entry at most once. If
   * pinned entries left too few to remove, the table may grow by an eighth before the next
   * try, so a table of mostly pinned entries costs at most 8 visits per insert, not a walk
   * of the table each.
   */
  private evict(count: number): void {
    const visits = this.slots.size;
    let visited = 0;
    for (const [key, slot] of this.slots) {
      if (count === 0 || visited++ >= visits) break;
      this.work++;
      if (this.pinned(slot.value)) {
        this.moveYoung(key, slot);
      } else {
        this.slots.delete(key);
        this.evicted++;
        count--;
      }
    }
    const size = this.slots.size;
    this.slack = size > this.capacity ? size - this.capacity + Math.max(this.batch, Math.floor(size / 8)) : 0;
  }

  private moveYoung(key: K, slot: Slot<V>): void {
    slot.stamp = ++this.clock;
    slot.at = this.now();
    this.slots.delete(key);
    this.slots.set(key, slot);
  }
}

interface Slot<V> {
  value: V;
  /** `clock` when it was last moved to the young end. */
  stamp: number;
  /** The time (ms) it was last moved to the young end: the Map is in this order. */
  at: number;
}
