import type Database from 'better-sqlite3';
import { IdIndex } from './id-index.js';

type Change = readonly [op: 'added' | 'removed', id: string, seq: number];


/**
 * Where each message id of the cache is (its seq), for `since=<id>`, a scheduled
 * message's release, attachment expiry and the one-id-once rule: an IdIndex in memory,
 * filled from the table when the cache opens and kept by the cache's own writes.
 *
 * Other connections to the file (a second instance, `tocsin import` beside the server)
 * write too. SQLite's `data_version` changes when they commit; the rows they added are
 * then read (seqs only grow, so they lie above the highest seq indexed so far). Rows they
 * deleted leave entries that every lookup checks against the table and drops; should
 * those pile up (another node prunes), the index is rebuilt from the table.
 */
export class MessageIds {
  private readonly index = new IdIndex();
  private readonly statements;
  private dataVersion = -1;
  /** Every row at or below this seq is indexed (or gone since). */
  private indexed = 0;
  private staleCheckedAt = 0;
  /** The changes of the write transaction running, undone should it roll back. */
  private journal: Change[] | undefined;

  /** `staleCheckMs`: how often, at most, the index is checked for rows other connections deleted (a COUNT). */
  constructor(
    db: Database.Database,
    private readonly staleCheckMs = 60_000,
  ) {
    this.statements = {
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      // In chunks through all(): iterate() costs a native call a row, 2 s for a million.
      rowsAfter: db.prepare('SELECT seq, id FROM messages WHERE seq > ? ORDER BY seq LIMIT 16384').raw(true),
      holds: db.prepare('SELECT 1 FROM messages WHERE seq = ? AND id = ?').pluck(),
      count: db.prepare('SELECT COUNT(*) FROM messages').pluck(),
    };
    this.sync();
  }

  /** Entries held, stale ones included. */
  get size(): number {
    return this.index.size;
  }

  /**
   * The seq of the message `id`, or undefined when the cache does not hold it. Inside
   * `writing`, the transaction has synced once, first thing, and is not synced again.
   */
  seqOf(id: string): number | undefined {
    if (this.journal === undefined) this.sync();
    const stale: number[] = [];
    const seq = this.index.find(id, (candidate) => {
      if (this.statements.holds.get(candidate, id) !== undefined) return true;
      stale.push(candidate);
      return false;
    });
    // Removed after the search, whose probe a removal would shift under it.
    for (const gone of stale) this.index.remove(id, gone);
    return seq;
  }

  /** The cache inserted `id` at `seq`. */
  added(id: string, seq: number): void {
    this.index.add(id, seq);
    this.indexed = Math.max(this.indexed, seq);
    this.journal?.push(['added', id, seq]);
  }

  /** The cache deleted the row of `id` at `seq`. */
  removed(id: string, seq: number): void {
    if (this.index.remove(id, seq)) this.journal?.push(['removed', id, seq]);
  }

  /**
   * Runs a write transaction (better-sqlite3's, which rolls back when it throws), with the
   * index changes it makes undone if it does. The transaction calls `sync` first thing,
   * holding the write lock (IMMEDIATE): a sync before it took the lock could miss rows
   * another connection commits in between, below the seqs this one then takes.
   */
  writing<T>(transaction: () => T): T {
    const journal: Change[] = [];
    const indexed = this.indexed;
    this.journal = journal;
    try {
      return transaction();
    } catch (err) {
      // The seqs it took are given back too (AUTOINCREMENT's counter rolls back), and may
      // come back as another connection's rows.
      this.indexed = indexed;
      for (const [op, id, seq] of journal.reverse()) {
        if (op === 'added') this.index.remove(id, seq);
        else this.index.add(id, seq);
      }
      throw err;
    } finally {
      this.journal = undefined;
    }
  }

  private rowsAfter(): [number, string][] {
    return this.statements.rowsAfter.all(this.indexed) as [number, string][];
  }

  /** Reads what other connections committed since the last look (a no-op when none did). */
  sync(): void {
    const version = this.statements.dataVersion.get() as number;
    if (version === this.dataVersion) return;
    const first = this.dataVersion === -1;
    this.dataVersion = version;
    if (!first && Date.now() - this.staleCheckedAt >= this.staleCheckMs) {
      this.staleCheckedAt = Date.now();
      if (this.index.size > 2 * (this.statements.count.get() as number) + 1024) {
        this.index.clear();
        this.indexed = 0;
      }
    }
    for (let rows = this.rowsAfter(); rows.length > 0; rows = this.rowsAfter()) {
      for (const [seq, id] of rows) this.index.add(id, seq);
      this.indexed = (rows[rows.length - 1] as [number, string])[0];
    }
  }
}
