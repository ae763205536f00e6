/**
 * A Map of at most `capacity` entries that drops the oldest inserted, in batches of an
 * eighth, at O(1) amortised per call: for entries that leave on their first use (a
 * visitor's first request, see Visitors), where insertion order is use order and
 * LruMap's bookkeeping would buy nothing. It holds the values themselves, not a slot per
 * entry: in an address flood every entry is young garbage the GC copies at least once,
 * and one object fewer per entry shows in the flood bench.
 */
export class FifoMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly batch: number;
  /** Entries visited by evictions and `expire` so far. */
  work = 0;
  /** Entries removed to stay within capacity (not those `expire` removed). */
  evicted = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`FifoMap capacity must be at least 1, got ${capacity}`);
    this.batch = Math.max(1, Math.floor(capacity / 8));
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Adds `key` as the newest entry; past capacity, drops the oldest batch (never `key` itself). */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.capacity) return;
    let count = Math.min(this.batch, this.entries.size - 1);
    for (const oldest of this.entries.keys()) {
      if (count-- === 0) break;
      this.entries.delete(oldest);
      this.work++;
      this.evicted++;
    }
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops the oldest entries while `stale` says so, stopping at the first that is not:
   * with values that age in insertion order, its cost is what it drops.
   */
  expire(stale: (value: V) => boolean): number {
    let dropped = 0;
    for (const [key, value] of this.entries) {
      this.work++;
      if (!stale(value)) break;
      this.entries.delete(key);
      dropped++;
    }
    return dropped;
  }
}
