import type pg from 'pg';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery, Trimmed } from '../message-cache.js';
import { readFailure, writeFailure } from './errors.js';
import { atNextPositions, byLog, logOf } from './log.js';
import { inTransaction } from './pool.js';
import type { Replicas } from './replicas.js';
import { PostgresReplays } from './replays.js';
import { forgetDrops, recordingDrops } from './topic-drops.js';

/** The stats row of the imported server's total, kept apart from the one `addStats` adds to. */
const importedStats = 'messages-imported';

interface Row {
  id: string;
  topic: string;
  time: number;
  expires: number;
  published: boolean;
  json: string;
  sid: string | null;
}

const rowOf = ({ message: m, json, published }: CacheEntry): Row => ({ id: m.id, topic: m.topic, time: m.time, expires: m.expires ?? 0, published, json, sid: m.sequence_id ?? null });

/** The events whose sequence id replaces (or deletes) a scheduled message still waiting. */
const replacing: ReadonlySet<Message['event']> = new Set(['message', 'message_delete']);

/** Rows into the cache at the next positions of the log, in order (log.ts); `conflict` is the INSERT's ON CONFLICT clause, if any. */
const insertAtNext = (conflict: string): string =>
  atNextPositions(`INSERT INTO messages (log, seq, id, topic, time, expires, published, json, sequence_id)
  SELECT $1, base + ord, id, topic, time, expires, published, json, sid
  FROM positions, bell, unnest($3::text[], $4::text[], $5::int8[], $6::int8[], $7::bool[], $8::text[], $9::text[]) WITH ORDINALITY AS r(id, topic, time, expires, published, json, sid, ord)
  ${conflict}
  RETURNING seq`);

const insertSql = insertAtNext('');
const importSql = insertAtNext('ON CONFLICT (id) DO NOTHING');

/**
 * Every write transaction takes its logs' row locks first, in ascending order: a release
 * deleting a waiting row before taking positions, while a replacing batch holds positions
 * and deletes that row, would deadlock, as would two batches taking two logs in turn.
 */
const lockLogs = 'SELECT 1 FROM log_positions WHERE log = ANY($1) ORDER BY log FOR UPDATE';

export interface PostgresCacheOptions {
  /** How many logs topics hash into (schema.ts); 1 by default. */
  logs?: number;
  /** Read replicas replays may read from (replays.ts). */
  replicas?: Replicas;
}

/**
 * The message cache on PostgreSQL, shared by every node on the database. A batch is one
 * INSERT taking its positions (above); a batch that replaces scheduled messages by
 * sequence id, and a release, are transactions whose row locks decide races between
 * nodes: a release and a replacement of one message delete the same waiting row, and the
 * second to get its lock finds it gone. Ids are kept unique by the table's index. A batch
 * of topics in several logs commits to each in one transaction. A write the server did not
 * take fails as the port's StoreWriteError (postgres/errors.ts): 503 or 507.
 */
export class PostgresMessageCache implements MessageCache {
  private readonly replays: PostgresReplays;
  private readonly logs: number;

  /** The cache on the database of `pool`, whose schema is open (schema.ts). */
  constructor(
    private readonly pool: pg.Pool,
    { logs = 1, replicas }: PostgresCacheOptions = {},
  ) {
    this.logs = logs;
    this.replays = new PostgresReplays(pool, logs, replicas);
  }

  logOf(topic: string): number {
    return logOf(topic, this.logs);
  }

  add(entries: readonly CacheEntry[]): Promise<Added> {
    return this.adding(entries).catch((err: unknown) => Promise.reject(writeFailure(err)));
  }

  private async adding(entries: readonly CacheEntry[]): Promise<Added> {
    const all = entries.map(rowOf);
    if (!entries.some(({ message: m }) => m.sequence_id !== undefined && replacing.has(m.event))) {
      const groups = byLog(all, this.logs);
      return { seqs: await this.inLogs(groups, (db) => this.insertByLog(db, all, groups)), replaced: [] };
    }
    return inTransaction(this.pool, async (client) => {
      await client.query(lockLogs, [byLog(all, this.logs).map(([log]) => log)]);
      const replaced: string[] = [];
      const seqs: number[] = [];
      let rows: Row[] = [];
      for (const entry of entries) {
        const m = entry.message;
        if (m.sequence_id !== undefined && replacing.has(m.event)) {
          // The rows before it go in first: one of them may be the message it replaces.
          seqs.push(...(await this.insertByLog(client, rows)));
          rows = [];
          const gone = await client.query<{ id: string }>('DELETE FROM messages WHERE topic = $1 AND sequence_id = $2 AND NOT published RETURNING id', [m.topic, m.sequence_id]);
          replaced.push(...gone.rows.map(({ id }) => id));
        }
        rows.push(rowOf(entry));
      }
      seqs.push(...(await this.insertByLog(client, rows)));
      return { seqs, replaced };
    });
  }

  /** Runs `write` of rows grouped by log (`byLog`) on the pool when they are of one log (the usual batch: one statement), else in one transaction. */
  private inLogs<R>(groups: readonly [number, number[]][], write: (db: pg.Pool | pg.PoolClient) => Promise<R>): Promise<R> {
    return groups.length === 1 ? write(this.pool) : inTransaction(this.pool, write);
  }

  /** Inserts `rows` into their topics' logs, logs ascending (in a transaction when several); answers each row's position. */
  private async insertByLog(db: pg.Pool | pg.PoolClient, rows: readonly Row[], groups = byLog(rows, this.logs)): Promise<number[]> {
    const seqs: number[] = new Array<number>(rows.length);
    for (const [log, indexes] of groups) {
      const taken = await insert(db, log, indexes.map((i) => rows[i] as Row));
      indexes.forEach((i, k) => (seqs[i] = taken[k] as number));
    }
    return seqs;
  }

  release(ids: readonly string[]): Promise<Outbound[]> {
    return inTransaction(this.pool, async (client) => {
      const waiting = await client.query<{ topic: string }>('SELECT DISTINCT topic FROM messages WHERE id = ANY($1) AND NOT published', [ids]);
      await client.query(lockLogs, [byLog(waiting.rows, this.logs).map(([log]) => log)]);
      const released: Outbound[] = [];
      for (const id of ids) {
        // Re-inserting takes a fresh seq: the message is delivered now, after messages
        // committed while it waited, and since=<id> must see it after those.
        const taken = await client.query<Omit<Row, 'id' | 'published' | 'sid'>>('DELETE FROM messages WHERE id = $1 AND NOT published RETURNING topic, time, expires, json', [id]);
        const row = taken.rows[0];
        if (!row) continue;
        const [seq] = await insert(client, logOf(row.topic, this.logs), [{ ...row, id, published: true, sid: null }]);
        released.push(Outbound.stored(row.json, seq as number));
      }
      return released;
    }).catch((err: unknown) => Promise.reject(writeFailure(err)));
  }

  replay(query: ReplayQuery): Promise<Replay> {
    return this.replays.read(query).catch((err: unknown) => Promise.reject(readFailure(err)));
  }

  async prune(nowSeconds: number): Promise<number> {
    await this.pool.query(forgetDrops, [nowSeconds]);
    const { rows } = await this.pool.query<{ count: number }>(recordingDrops('DELETE FROM messages WHERE expires <= $1 AND published RETURNING topic, time, seq, expires'), [nowSeconds]);
    return rows[0]?.count ?? 0;
  }

  async trim(topic: string, keep: number): Promise<Trimmed> {
    // A topic's messages are in one log, so (time, seq) is its replay order; messages_topic serves the walk.
    const { rows } = await this.pool.query<{ count: number; newest: string }>(
      recordingDrops(
        'DELETE FROM messages m USING beyond b WHERE m.log = b.log AND m.seq = b.seq RETURNING m.topic, m.time, m.seq, m.expires',
        'beyond AS (SELECT log, seq FROM messages WHERE topic = $1 AND published ORDER BY time DESC, seq DESC OFFSET $2),',
      ),
      [topic, keep],
    ).catch((err: unknown) => Promise.reject(writeFailure(err)));
    const row = rows[0];
    return { count: row?.count ?? 0, newest: Number(row?.newest ?? 0) };
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    // In JavaScript, not with jsonb's `-`: jsonb would reorder the message's keys.
    const held = await this.pool.query<{ id: string; json: string }>('SELECT id, json FROM messages WHERE id = ANY($1)', [ids]);
    for (const { id, json } of held.rows) {
      const message = JSON.parse(json) as Record<string, unknown>;
      delete message.attachment;
      await this.pool.query('UPDATE messages SET json = $2 WHERE id = $1', [id, JSON.stringify(message)]);
    }
  }

  async topics(): Promise<Set<string>> {
    return new Set((await this.pool.query<{ topic: string }>('SELECT DISTINCT topic FROM messages')).rows.map(({ topic }) => topic));
  }

  count(): Promise<number> {
    return this.number('SELECT count(*) AS n FROM messages');
  }

  waiting(): Promise<number> {
    return this.number('SELECT count(*) AS n FROM messages WHERE NOT published');
  }

  bytes(): Promise<number> {
    return this.number("SELECT pg_total_relation_size('messages') AS n");
  }

  loadStats(): Promise<number> {
    return this.number('SELECT coalesce(sum(value), 0)::int8 AS n FROM stats WHERE key IN ($1, $2)', ['messages', importedStats]);
  }

  async addStats(messages: number): Promise<number> {
    const added = await this.number("INSERT INTO stats (key, value) VALUES ('messages', $1) ON CONFLICT (key) DO UPDATE SET value = stats.value + excluded.value RETURNING value AS n", [messages]);
    return added + (await this.number('SELECT coalesce(max(value), 0)::int8 AS n FROM stats WHERE key = $1', [importedStats]));
  }

  async import(entries: readonly CacheEntry[]): Promise<number> {
    const rows = entries.map(rowOf);
    const groups = byLog(rows, this.logs);
    const importing = this.inLogs(groups, async (db) => {
      let count = 0;
      // An id held (or twice in the batch) is skipped: its position stays a gap.
      for (const [log, indexes] of groups) count += (await insert(db, log, indexes.map((i) => rows[i] as Row), importSql)).length;
      return count;
    });
    return importing.catch((err: unknown) => Promise.reject(writeFailure(err)));
  }

  async setImportedStats(messages: number): Promise<void> {
    await this.pool.query('INSERT INTO stats (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [importedStats, messages]);
  }

  private async number(sql: string, values: unknown[] = []): Promise<number> {
    return (await this.pool.query<{ n: number }>(sql, values)).rows[0]?.n ?? 0;
  }
}

/** Inserts `rows` at the next positions of `log`, in order; answers the positions taken, ascending. */
async function insert(db: pg.Pool | pg.PoolClient, log: number, rows: readonly Row[], sql = insertSql): Promise<number[]> {
  if (rows.length === 0) return [];
  const column = <K extends keyof Row>(key: K): Row[K][] => rows.map((row) => row[key]);
  const taken = await db.query<{ seq: number }>(sql, [log, rows.length, column('id'), column('topic'), column('time'), column('expires'), column('published'), column('json'), column('sid')]);
  return taken.rows.map(({ seq }) => seq).sort((a, b) => a - b);
}
