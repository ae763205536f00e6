import type Database from 'better-sqlite3';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery } from '../message-cache.js';
import { ReplayReader } from './replay-reader.js';
import { openCacheSchema } from './schema.js';
import { writeFailure } from './write-error.js';

/** The stats row of the imported server's total, kept apart from the one `addStats` adds to. */
const importedStats = 'messages-imported';

/** The events whose sequence id replaces (or deletes) a scheduled message still waiting. */
const replacing: ReadonlySet<Message['event']> = new Set(['message', 'message_delete']);

/**
 * The embedded message cache on the store's SQLite database. better-sqlite3 is
 * synchronous, so a batch is one transaction nothing else in this process interleaves
 * with; the async port lets a networked store take its place. Another connection to the
 * file (a second instance) is waited for at SQLite's write lock (busy_timeout): each
 * transaction here begins with its write, so it never holds a read snapshot while it
 * waits, which would make SQLite fail at once instead.
 */
export class SqliteMessageCache implements MessageCache {
  private readonly insert: Database.Statement;
  private readonly insertBatch: (entries: readonly CacheEntry[]) => Added;
  private readonly importBatch: (entries: readonly CacheEntry[]) => number;
  private readonly releaseBatch: (ids: readonly string[]) => Outbound[];
  private readonly replays: ReplayReader;
  private readonly expire: Database.Statement;

  constructor(private readonly db: Database.Database) {
    openCacheSchema(db);
    this.insert = db.prepare(
      'INSERT INTO messages (id, topic, time, expires, published, json, sequence_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const deleteWaiting = db.prepare('DELETE FROM messages WHERE topic = ? AND sequence_id = ? AND published = 0 RETURNING id').pluck();
    this.insertBatch = db.transaction((entries: readonly CacheEntry[]) => {
      const replaced: string[] = [];
      const seqs = entries.map(({ message: m, json, published }) => {
        const sid = m.sequence_id ?? null;
        if (sid !== null && replacing.has(m.event)) replaced.push(...(deleteWaiting.all(m.topic, sid) as string[]));
        return Number(this.insert.run(m.id, m.topic, m.time, m.expires ?? 0, published ? 1 : 0, json, sid).lastInsertRowid);
      });
      return { seqs, replaced };
    });
    const insertAbsent = db.prepare(
      'INSERT OR IGNORE INTO messages (id, topic, time, expires, published, json, sequence_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.importBatch = db.transaction((entries: readonly CacheEntry[]) =>
      entries.reduce((added, { message: m, json, published }) =>
        added + insertAbsent.run(m.id, m.topic, m.time, m.expires ?? 0, published ? 1 : 0, json, m.sequence_id ?? null).changes, 0),
    );
    // Re-inserting takes a fresh seq: the message is delivered now, after messages
    // committed while it waited, and since=<id> must see it after those.
    const takeWaiting = db.prepare('DELETE FROM messages WHERE id = ? AND published = 0 RETURNING id, topic, time, expires, json').raw(true);
    this.releaseBatch = db.transaction((ids: readonly string[]) =>
      ids.flatMap((id) => {
        const row = takeWaiting.get(id) as [string, string, number, number, string] | undefined;
        if (!row) return [];
        const [, topic, time, expires, json] = row;
        const seq = Number(this.insert.run(id, topic, time, expires, 1, json, null).lastInsertRowid);
        return [Outbound.stored(json, seq)];
      }),
    );
    this.replays = new ReplayReader(db);
    this.expire = db.prepare('DELETE FROM messages WHERE expires <= ? AND published = 1');
  }

  async add(entries: readonly CacheEntry[]): Promise<Added> {
    try {
      return this.insertBatch(entries);
    } catch (err) {
      throw writeFailure(err);
    }
  }

  async release(ids: readonly string[]): Promise<Outbound[]> {
    try {
      return this.releaseBatch(ids);
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
    return this.expire.run(nowSeconds).changes;
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    const drop = this.db.prepare("UPDATE messages SET json = json_remove(json, '$.attachment') WHERE id = ?");
    this.db.transaction(() => ids.forEach((id) => drop.run(id)))();
  }

  async topics(): Promise<Set<string>> {
    const names = this.db.prepare('SELECT DISTINCT topic FROM messages').pluck().all() as string[];
    return new Set(names);
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
    return this.db.prepare(`SELECT IFNULL(SUM(value), 0) FROM stats WHERE key IN ('messages', '${importedStats}')`).pluck().get() as number;
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
      return this.importBatch(entries);
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
