import type Database from 'better-sqlite3';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery, Trimmed } from '../message-cache.js';
import { MemoryIndexes } from './memory-indexes.js';
import { MultiRowInsert } from './multi-row-insert.js';
import { ReplayReader } from './replay-reader.js';
import { openCacheSchema } from './schema.js';
import { TopicDrops, type Dropped } from './topic-drops.js';
import { writeFailure } from './write-error.js';

/** The stats row of the imported server's total, kept apart from the one `addStats` adds to. */
const importedStats = 'messages-imported';

/** The stats rows whose sum is the published total (`loadStats`). */
export const publishedStats = ['messages', importedStats] as const;

/** A row as the INSERT takes it: id, topic, time, expires, published, json, sequence_id. */
type Row = [id: string, topic: string, time: number, expires: number, published: 0 | 1, json: string, sid: string | null];

const rowOf = ({ message: m, json, published }: CacheEntry): Row => [m.id, m.topic, m.time, m.expires ?? 0, published ? 1 : 0, json, m.sequence_id ?? null];

/** The events whose sequence id replaces (or deletes) a scheduled message still waiting. */
const replacing: ReadonlySet<Message['event']> = new Set(['message', 'message_delete']);

/**
 * The embedded message cache on the store's SQLite database. better-sqlite3 is
 * synchronous, so a batch is one transaction nothing else in this process interleaves
 * with; the async port lets a networked store take its place. Another connection to the
 * file (a second instance) is waited for at SQLite's write lock (busy_timeout): each write
 * transaction is IMMEDIATE, taking the lock before it reads anything (the id index's catch-up
 * reads first), since one holding a read snapshot while it waits would make SQLite fail at once.
 */
export class SqliteMessageCache implements MessageCache {
  private readonly insertBatch: Database.Transaction<(entries: readonly CacheEntry[]) => Added>;
  private readonly importBatch: Database.Transaction<(entries: readonly CacheEntry[]) => number>;
  private readonly releaseBatch: Database.Transaction<(ids: readonly string[]) => Outbound[]>;
  private readonly replays: ReplayReader;
  private readonly indexes: MemoryIndexes;
  private readonly pruneBatch: Database.Transaction<(nowSeconds: number) => number>;
  private readonly trimBatch: Database.Transaction<(topic: string, keep: number) => Trimmed>;

  /** `committed` is called after each batch of messages the cache commits. */
  constructor(
    private readonly db: Database.Database,
    private readonly committed: () => void = () => undefined,
  ) {
    openCacheSchema(db);
    const drops = new TopicDrops(db);
    const indexes = new MemoryIndexes(db);
    this.indexes = indexes;
    const inserts = new MultiRowInsert(db, 'INSERT INTO messages (id, topic, time, expires, published, json, sequence_id)', 7);
    /** Inserts the rows in order, indexes them, and returns their seqs. */
    const store = (rows: readonly Row[]): number[] => {
      if (rows.length === 0) return [];
      const first = inserts.run(rows) - rows.length + 1;
      const seqs = rows.map((_, i) => first + i);
      indexes.added(rows.map(([id, topic, time, , , json], i) => ({ id, topic, time, seq: first + i, size: Buffer.byteLength(json) })));
      return seqs;
    };
    const deleteWaiting = db.prepare('DELETE FROM messages WHERE topic = ? AND sequence_id = ? AND published = 0 RETURNING id, time, seq').raw(true);
    this.insertBatch = db.transaction((entries: readonly CacheEntry[]) => {
      indexes.sync();
      const replaced: string[] = [];
      const seqs: number[] = [];
      const ids = new Set<string>();
      let rows: Row[] = [];
      for (const entry of entries) {
        const m = entry.message;
        if (ids.has(m.id) || indexes.seqOf(m.id) !== undefined) throw new Error(`the cache already holds a message with id ${m.id}`);
        ids.add(m.id);
        if (m.sequence_id !== undefined && replacing.has(m.event)) {
          // The rows before it go in first: one of them may be the message it replaces.
          seqs.push(...store(rows));
          rows = [];
          for (const [id, time, seq] of deleteWaiting.all(m.topic, m.sequence_id) as [string, number, number][]) {
            indexes.removed({ id, topic: m.topic, time, seq });
            replaced.push(id);
          }
        }
        rows.push(rowOf(entry));
      }
      seqs.push(...store(rows));
      return { seqs, replaced };
    });
    this.importBatch = db.transaction((entries: readonly CacheEntry[]) => {
      indexes.sync();
      const ids = new Set<string>();
      const fresh = entries.filter(({ message: { id } }) => !ids.has(id) && indexes.seqOf(id) === undefined && ids.add(id));
      return store(fresh.map(rowOf)).length;
    });
    // Re-inserting takes a fresh seq: the message is delivered now, after messages
    // committed while it waited, and since=<id> must see it after those.
    const takeWaiting = db.prepare('DELETE FROM messages WHERE seq = ? AND published = 0 RETURNING topic, time, expires, json').raw(true);
    this.releaseBatch = db.transaction((released: readonly string[]) => {
      indexes.sync();
      return released.flatMap((id) => {
        const waiting = indexes.seqOf(id);
        const row = waiting === undefined ? undefined : (takeWaiting.get(waiting) as [string, number, number, string] | undefined);
        if (waiting === undefined || !row) return [];
        const [topic, time, expires, json] = row;
        indexes.removed({ id, topic, time, seq: waiting });
        return [Outbound.stored(json, store([[id, topic, time, expires, 1, json, null]])[0] as number)];
      });
    });
    this.replays = new ReplayReader(db, indexes, drops);
    const expire = db.prepare('DELETE FROM messages WHERE expires <= ? AND published = 1 RETURNING id, topic, time, seq, expires').raw(true);
    this.pruneBatch = db.transaction((now: number) => {
      const expired = expire.all(now) as [string, ...Dropped][];
      for (const [id, topic, time, seq] of expired) indexes.removed({ id, topic, time, seq });
      drops.forgetUntil(now);
      drops.record(expired.map(([, ...dropped]) => dropped));
      return expired.length;
    });
    // The topic's index gives its messages in replay order; the join leaves the waiting ones out.
    const beyond = db.prepare(`SELECT m.id, m.time, m.seq, m.expires FROM memory.topic_index t JOIN messages m ON m.seq = t.seq
      WHERE t.topic = ? AND m.published = 1 ORDER BY t.time DESC, t.seq DESC LIMIT -1 OFFSET ?`).raw(true);
    const drop = db.prepare('DELETE FROM messages WHERE seq = ?');
    this.trimBatch = db.transaction((topic: string, keep: number) => {
      indexes.sync();
      const dropped = beyond.all(topic, keep) as [string, number, number, number][];
      for (const [id, time, seq] of dropped) {
        drop.run(seq);
        indexes.removed({ id, topic, time, seq });
      }
      drops.record(dropped.map(([, time, seq, expires]) => [topic, time, seq, expires]));
      return { count: dropped.length, newest: dropped[0]?.[1] ?? 0 };
    });
  }

  async add(entries: readonly CacheEntry[]): Promise<Added> {
    let added: Added;
    try {
      added = this.indexes.writing(() => this.insertBatch.immediate(entries));
    } catch (err) {
      throw writeFailure(err);
    }
    this.committed();
    return added;
  }

  async release(ids: readonly string[]): Promise<Outbound[]> {
    try {
      return this.indexes.writing(() => this.releaseBatch.immediate(ids));
    } catch (err) {
      throw writeFailure(err);
    }
  }

  async replay(q: ReplayQuery): Promise<Replay> {
    return this.replays.read(q);
  }

  /** The seq of the newest commit in the file (0 when none), where this process's live feed starts. */
  newestSeq(): number {
    return this.db.prepare('SELECT IFNULL(MAX(seq), 0) FROM messages').pluck().get() as number;
  }

  async prune(nowSeconds: number): Promise<number> {
    return this.indexes.writing(() => this.pruneBatch.immediate(nowSeconds));
  }

  async trim(topic: string, keep: number): Promise<Trimmed> {
    return this.indexes.writing(() => this.trimBatch.immediate(topic, keep));
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    const drop = this.db.prepare("UPDATE messages SET json = json_remove(json, '$.attachment') WHERE seq = ?");
    this.db.transaction(() =>
      ids.forEach((id) => {
        const seq = this.indexes.seqOf(id);
        if (seq !== undefined) drop.run(seq);
      }),
    )();
  }

  async topics(): Promise<Set<string>> {
    return new Set(this.indexes.topics());
  }

  async count(): Promise<number> {
    // SQLite counts by walking its smallest index (expires) without reading rows: 0.3–1.7 ms
    // for a million rows in a file here, so it runs at every scrape.
    return this.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
  }

  async waiting(): Promise<number> {
    // Read from the partial index of waiting messages (schema.ts), not the table.
    return this.db.prepare('SELECT COUNT(*) FROM messages WHERE published = 0').pluck().get() as number;
  }

  async bytes(): Promise<number> {
    // The file's pages in use (free pages left by deletes are not counted); the WAL is not.
    const pages = (this.db.pragma('page_count', { simple: true }) as number) - (this.db.pragma('freelist_count', { simple: true }) as number);
    return pages * (this.db.pragma('page_size', { simple: true }) as number);
  }

  async loadStats(): Promise<number> {
    return this.db.prepare('SELECT IFNULL(SUM(value), 0) FROM stats WHERE key IN (?, ?)').pluck().get(...publishedStats) as number;
  }

  async addStats(messages: number): Promise<number> {
    // The row a file made before increments holds the total it saved; adding keeps it.
    const total = this.db
      .prepare("INSERT INTO stats (key, value) VALUES ('messages', ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value RETURNING value")
      .pluck()
      .get(messages) as number;
    return total + this.imported();
  }

  async import(entries: readonly CacheEntry[]): Promise<number> {
    try {
      return this.indexes.writing(() => this.importBatch.immediate(entries));
    } catch (err) {
      throw writeFailure(err);
    }
  }

  async setImportedStats(messages: number): Promise<void> {
    this.db.prepare('INSERT INTO stats (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(importedStats, messages);
  }

  private imported(): number {
    return (this.db.prepare('SELECT value FROM stats WHERE key = ?').pluck().get(importedStats) as number | undefined) ?? 0;
  }
}
