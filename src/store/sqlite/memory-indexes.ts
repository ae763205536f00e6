import type Database from 'better-sqlite3';
import { IdIndex } from './id-index.js';
import { MultiRowInsert } from './multi-row-insert.js';

/** A cached message as its indexes know it. */
export interface Indexed {
  id: string;
  topic: string;
  time: number;
  seq: number;
}

type Change = readonly [op: 'added' | 'removed', id: string, seq: number];

/**
 * The cache's two indexes, held in memory instead of in the file: the id's (an IdIndex,
 * for `since=<id>`, a scheduled message's release, attachment expiry and the one-id-once
 * rule) and the topic's (`memory.topic_index`, an in-memory SQLite table on the same
 * connection, which replays join to the messages by seq; it holds each message's JSON
 * size, so a replay knows whether a topic fits its cap without reading the messages). Both keys are random across
 * messages (ids by design; topics once there are many), so in a B-tree of the file every
 * insert dirtied a 4 KB page of its own, written to the WAL and again at the checkpoint:
 * on disk 30 µs of CPU and 110 µs of wall time a message with 10,000 topics, against
 * 8.5 and 10 in memory (bench/README.md). They cost memory instead — 23–46 bytes a
 * message for ids, about 40 for topics — and are filled from the file when the cache
 * opens (about a second per million messages).
 *
 * The cache keeps them as it writes. Other connections to the file (a second instance,
 * `tocsin import` beside the server) write too: SQLite's `data_version` changes when they
 * commit, and the rows they added are then read (seqs only grow, so those lie above the
 * highest seq indexed). Rows they deleted leave entries that an id lookup checks against
 * the table and drops, and that a replay's join skips; should those pile up (another node
 * prunes), both indexes are rebuilt from the table.
 */
export class MemoryIndexes {
  private readonly ids = new IdIndex();
  private readonly statements;
  private readonly addTopics: MultiRowInsert;
  private dataVersion = -1;
  /** Every row at or below this seq is indexed (or gone since). */
  private indexed = 0;
  private staleCheckedAt = 0;
  /** The id changes of the write transaction running, undone should it roll back (SQLite rolls the topic table back itself). */
  private journal: Change[] | undefined;

  /** `staleCheckMs`: how often, at most, the indexes are checked for rows other connections deleted (a COUNT). */
  constructor(
    db: Database.Database,
    private readonly staleCheckMs = 60_000,
  ) {
    db.exec(`ATTACH DATABASE ':memory:' AS memory;
      CREATE TABLE memory.topic_index (topic TEXT NOT NULL, time INTEGER NOT NULL, seq INTEGER NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (topic, time, seq)) WITHOUT ROWID;`);
    this.statements = {
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      // In chunks through all(): iterate() costs a native call a row, 2 s for a million.
      idsAfter: db.prepare('SELECT seq, id FROM messages WHERE seq > ? ORDER BY seq LIMIT 16384').raw(true),
      topicsAfter: db.prepare('INSERT OR IGNORE INTO memory.topic_index (topic, time, seq, size) SELECT topic, time, seq, octet_length(json) FROM messages WHERE seq > ?'),
      holds: db.prepare('SELECT 1 FROM messages WHERE seq = ? AND id = ?').pluck(),
      count: db.prepare('SELECT COUNT(*) FROM messages').pluck(),
      removeTopic: db.prepare('DELETE FROM memory.topic_index WHERE topic = ? AND time = ? AND seq = ?'),
      clearTopics: db.prepare('DELETE FROM memory.topic_index'),
      topics: db.prepare('SELECT DISTINCT topic FROM memory.topic_index').pluck(),
    };
    this.addTopics = new MultiRowInsert(db, 'INSERT INTO memory.topic_index (topic, time, seq, size)', 4);
    this.sync();
  }

  /** Id entries held, stale ones included. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * The seq of the message `id`, or undefined when the cache does not hold it. Inside
   * `writing`, the transaction has synced once, first thing, and is not synced again.
   */
  seqOf(id: string): number | undefined {
    if (this.journal === undefined) this.sync();
    const stale: number[] = [];
    const seq = this.ids.find(id, (candidate) => {
      if (this.statements.holds.get(candidate, id) !== undefined) return true;
      stale.push(candidate);
      return false;
    });
    // Removed after the search, whose probe a removal would shift under it.
    for (const gone of stale) this.ids.remove(id, gone);
    return seq;
  }

  /** Topics with an entry (one whose messages another connection deleted may be among them). */
  topics(): string[] {
    this.sync();
    return this.statements.topics.all() as string[];
  }

  /** The cache inserted messages (`size`: their JSON's UTF-8 bytes). */
  added(rows: readonly (Indexed & { size: number })[]): void {
    this.addTopics.run(rows.map(({ topic, time, seq, size }) => [topic, time, seq, size]));
    for (const { id, seq } of rows) {
      this.ids.add(id, seq);
      this.indexed = Math.max(this.indexed, seq);
      this.journal?.push(['added', id, seq]);
    }
  }

  /** The cache deleted a message's row. */
  removed({ id, topic, time, seq }: Indexed): void {
    this.statements.removeTopic.run(topic, time, seq);
    if (this.ids.remove(id, seq)) this.journal?.push(['removed', id, seq]);
  }

  /**
   * Runs a write transaction (better-sqlite3's, which rolls back when it throws), with the
   * id changes it makes undone if it does. The transaction calls `sync` first thing,
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
      // come back as another connection's rows; so are the rows its sync read.
      this.indexed = indexed;
      for (const [op, id, seq] of journal.reverse()) {
        if (op === 'added') this.ids.remove(id, seq);
        else this.ids.add(id, seq);
      }
      throw err;
    } finally {
      this.journal = undefined;
    }
  }

  /** Reads what other connections committed since the last look (a no-op when none did). */
  sync(): void {
    const version = this.statements.dataVersion.get() as number;
    if (version === this.dataVersion) return;
    const first = this.dataVersion === -1;
    this.dataVersion = version;
    if (!first && Date.now() - this.staleCheckedAt >= this.staleCheckMs) {
      this.staleCheckedAt = Date.now();
      if (this.ids.size > 2 * (this.statements.count.get() as number) + 1024) {
        this.ids.clear();
        this.statements.clearTopics.run();
        this.indexed = 0;
      }
    }
    this.statements.topicsAfter.run(this.indexed);
    for (let rows = this.idsAfter(); rows.length > 0; rows = this.idsAfter()) {
      for (const [seq, id] of rows) {
        this.ids.add(id, seq);
        this.journal?.push(['added', id, seq]);
      }
      this.indexed = (rows[rows.length - 1] as [number, string])[0];
    }
  }

  private idsAfter(): [number, string][] {
    return this.statements.idsAfter.all(this.indexed) as [number, string][];
  }
}
