import { LruMap } from '../../../model/lru-map.js';

/**
 * Reads remembered, least recently used forgotten first: keys come from requests (names,
 * tokens, topics, also unknown ones), so a flood of made-up tokens must neither grow the
 * memory nor push out what the real clients use.
 */
const limit = 10_000;

/**
 * Reads kept whole, apart from the bounded memo (`whole`): keys the code names (the table
 * of every access entry), never a request's, so a flood of made-up keys cannot push them
 * out and make each request read a whole table again.
 */
const wholeLimit = 16;

/**
 * The reads of every request (who a name or token is, what a user may do with a topic),
 * remembered until the file changes: `dataVersion` (SQLite's `PRAGMA data_version`) moves
 * when another connection (the CLI, another server) commits, and this connection's own
 * writes call `clear`. One pragma per millisecond instead of three queries and a JSON
 * parse per request; that millisecond is the store's `staleReadBoundMs`.
 */
export class ReadCache {
  private readonly memo = new LruMap<string, unknown>(limit);
  private readonly kept = new LruMap<string, unknown>(wholeLimit);
  private version = -1;
  private checkedAt = 0;

  constructor(private readonly dataVersion: () => number) {}

  /** Reads remembered now (for tests: bounded by `limit`). */
  get size(): number {
    return this.memo.size;
  }

  get<T>(key: string, read: () => T, whole = false): T {
    // At most one pragma per millisecond: a request reads two or three keys, and a pragma
    // for each (~0.75 µs here, as much as a query) would take back most of what remembering
    // saves. A read in a later millisecond than the last check asks again, so another
    // connection's commit is seen within the store's staleReadBoundMs.
    const now = Date.now();
    if (now !== this.checkedAt) {
      this.checkedAt = now;
      const version = this.dataVersion();
      if (version !== this.version) this.clear();
      this.version = version;
    }
    const table = whole ? this.kept : this.memo;
    const hit = table.get(key);
    if (hit !== undefined || table.has(key)) return hit as T; // undefined is remembered too: no such user
    const value = read();
    table.set(key, value);
    return value;
  }

  clear(): void {
    this.memo.clear();
    this.kept.clear();
  }
}
