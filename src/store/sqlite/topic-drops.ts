import type Database from 'better-sqlite3';
import { dropRecordUntil, type Since } from '../message-cache.js';

/** A message dropped from the cache, as its topic's record takes it. */
export type Dropped = [topic: string, time: number, seq: number, expires: number];

const schema = 'CREATE TABLE IF NOT EXISTS topic_drops (topic TEXT PRIMARY KEY, time INTEGER NOT NULL, seq INTEGER NOT NULL, until INTEGER NOT NULL);';

/**
 * Per topic, the newest message the cache dropped (pruned or trimmed): its time and its
 * seq, so that a replay's gap (MessageCache's contract) is one primary-key lookup. A
 * record is kept until `until` (dropRecordUntil: as long again as the message lived, an
 * hour at least), so the table holds a row only per topic that dropped messages lately: a topic a
 * stranger made costs one row, which its messages' prune takes away again.
 */
export class TopicDrops {
  private readonly upsert: Database.Statement;
  private readonly forget: Database.Statement;
  private readonly lookup: Database.Statement;

  constructor(db: Database.Database) {
    db.exec(schema);
    this.upsert = db.prepare(`INSERT INTO topic_drops (topic, time, seq, until) VALUES (?, ?, ?, ?)
      ON CONFLICT (topic) DO UPDATE SET time = max(time, excluded.time), seq = max(seq, excluded.seq), until = max(until, excluded.until)`);
    this.forget = db.prepare('DELETE FROM topic_drops WHERE until <= ?');
    this.lookup = db.prepare('SELECT time, seq FROM topic_drops WHERE topic = ?').raw(true);
  }

  /** Records `dropped`, in the caller's transaction: one write per topic. */
  record(dropped: readonly Dropped[]): void {
    const newest = new Map<string, [time: number, seq: number, until: number]>();
    for (const [topic, time, seq, expires] of dropped) {
      const until = dropRecordUntil(time, expires);
      const held = newest.get(topic);
      newest.set(topic, held ? [Math.max(held[0], time), Math.max(held[1], seq), Math.max(held[2], until)] : [time, seq, until]);
    }
    for (const [topic, row] of newest) this.upsert.run(topic, ...row);
  }

  /** Forgets the records kept until `now` or before. */
  forgetUntil(now: number): void {
    this.forget.run(now);
  }

  /** Whether a replay of `topic` since `since` misses a dropped message; `seq`: since's id's, when the cache holds it. */
  missed(topic: string, since: Since, seq: number | undefined): boolean {
    if (since.kind !== 'time' && since.kind !== 'id') return false;
    const row = this.lookup.get(topic) as [time: number, seq: number] | undefined;
    if (!row) return false;
    if (since.kind === 'time') return row[0] >= since.time;
    return seq === undefined || row[1] > seq;
  }
}
