import type pg from 'pg';
import { dropRecordMinSeconds, type Since } from '../message-cache.js';

/**
 * Per topic, the newest message the cache dropped (pruned or trimmed): its time and its
 * position in the topic's log, so that a replay's gap (MessageCache's contract) is one
 * primary-key lookup. A record is kept until `until` (dropRecordUntil: as long again as the
 * message lived, an hour at least): a row only per topic that dropped messages lately.
 */
export const topicDropsSchema = `
  CREATE TABLE topic_drops (topic text PRIMARY KEY, time bigint NOT NULL, seq bigint NOT NULL, until bigint NOT NULL);
  CREATE INDEX topic_drops_until ON topic_drops (until);
`;

/**
 * A statement that deletes messages by `deleting` (a DELETE … RETURNING topic, time, seq,
 * expires, after the common table expressions `before`, if any: PostgreSQL takes a DELETE
 * in a WITH only at the top level), records them per topic, and answers how many it
 * deleted and the newest one's time.
 */
export const recordingDrops = (deleting: string, before = ''): string => `
  WITH ${before}dropped AS (${deleting}),
  recorded AS (
    INSERT INTO topic_drops (topic, time, seq, until)
    SELECT topic, max(time), max(seq), max(expires + greatest(expires - time, ${dropRecordMinSeconds})) FROM dropped GROUP BY topic
    ON CONFLICT (topic) DO UPDATE SET time = greatest(topic_drops.time, excluded.time),
      seq = greatest(topic_drops.seq, excluded.seq), until = greatest(topic_drops.until, excluded.until))
  SELECT count(*)::int AS count, coalesce(max(time), 0) AS newest FROM dropped`;

/** Forgets the records kept until $1 or before. */
export const forgetDrops = 'DELETE FROM topic_drops WHERE until <= $1';

/**
 * Whether a replay of `topic` since `since` misses a dropped message. `marker`: since's
 * id's position when the cache holds it, `sameLog` when it is of the topic's log (else
 * positions are not comparable and its time is compared, as the replay does).
 */
export async function missedDrop(client: pg.PoolClient, topic: string, since: Since, marker: { seq: number; time: number; sameLog: boolean } | undefined): Promise<boolean> {
  if (since.kind !== 'time' && since.kind !== 'id') return false;
  const row = (await client.query<{ time: number; seq: number }>('SELECT time, seq FROM topic_drops WHERE topic = $1', [topic])).rows[0];
  if (!row) return false;
  if (since.kind === 'time') return row.time >= since.time;
  if (!marker) return true;
  return marker.sameLog ? row.seq > marker.seq : row.time >= marker.time;
}
