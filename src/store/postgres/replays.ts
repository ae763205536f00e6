import type pg from 'pg';
import { noReplay, type Replay, type ReplayQuery } from '../message-cache.js';
import { positionIn } from '../live-feed.js';
import { logOf } from './log.js';
import { inTransaction } from './pool.js';
import { Replicas } from './replicas.js';
import { missedDrop } from './topic-drops.js';

/** Rows of the first page: a replay under its cap usually takes one. */
const firstPage = 1000;

/** The most rows that can fit `bytes` (a message's JSON takes 100 at the least), and one more to know a page is full. */
const rowsWithin = (bytes: number): number => Math.floor(bytes / 100) + 1;

interface Page {
  json: string;
  time: number;
  seq: number;
}

const readOnly = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/**
 * Replays of the PostgreSQL cache: the newest messages of a topic that fit the byte cap,
 * read in pages newest first through the (topic, time, seq) index, so a request never
 * loads more than it may send (the cap is its visitor's allowance). A replay reads in one
 * repeatable-read transaction, so its pages and `maybeLive` see the same commits.
 *
 * With read replicas, a replay reads from one only where that cannot skip a message: the
 * replica must hold every position up to the one the replay must cover, which for a
 * subscription going on live is the feed's position when it attached (what follows comes
 * live), and for a poll the primary's newest (a poll sees everything acknowledged before
 * it: one point read of the primary instead of the replay's pages). A replica behind it,
 * one that does not know the `since=` id, or one that fails leaves the replay to the primary.
 */
export class PostgresReplays {
  constructor(
    private readonly pool: pg.Pool,
    private readonly logs = 1,
    private readonly replicas = new Replicas([]),
  ) {}

  async read(q: ReplayQuery): Promise<Replay> {
    // Most subscriptions replay nothing: no transaction for them.
    if (q.since.kind === 'none') return noReplay();
    const log = logOf(q.topic, this.logs);
    const replica = this.replicas.pick();
    if (replica) {
      const needed = q.livePosition === undefined ? await newestOf(this.pool, log) : positionIn(q.livePosition, log);
      const fromReplica = await inTransaction(replica, (client) => this.replay(client, q, log, needed), readOnly).catch(() => {
        this.replicas.failed(replica);
        return undefined;
      });
      if (fromReplica) return fromReplica;
    }
    return (await inTransaction(this.pool, (client) => this.replay(client, q, log), readOnly)) as Replay;
  }

  /** The replay; undefined on a replica (`needed` given) that has not replayed up to `needed`, or does not know the since= id. */
  private async replay(client: pg.PoolClient, q: ReplayQuery, log: number, needed?: number): Promise<Replay | undefined> {
    if (needed !== undefined) {
      if ((await newestOf(client, log)) < needed) return undefined;
    }
    const { since, scheduled } = q;
    // An unknown id means the whole cache, as in ntfy; on a replica, maybe only one it has not replayed yet.
    const marker = since.kind === 'id' ? (await client.query<{ log: number; seq: number; time: number }>('SELECT log, seq, time FROM messages WHERE id = $1', [since.id])).rows[0] : undefined;
    if (since.kind === 'id' && marker === undefined && needed !== undefined) return undefined;
    // An id of another log's topic (a subscription to several topics, since= one of them):
    // positions of two logs are not comparable, so what came from its time on, as on MongoDB.
    const seq = marker?.log === log ? marker.seq : undefined;
    const from = since.kind === 'time' ? since.time : marker && marker.log !== log ? marker.time : undefined;
    const withScheduled = scheduled && since.kind !== 'latest';
    const params: unknown[] = [q.topic, Math.floor(Date.now() / 1000)];
    let where = withScheduled ? 'true' : 'published';
    if (from !== undefined) {
      params.push(from);
      where = `${where} AND time >= $3`;
    } else if (seq !== undefined) {
      params.push(seq);
      where = withScheduled ? '(seq > $3 OR NOT published)' : 'published AND seq > $3';
    }
    const page = (limit: number, below: Pick<Page, 'time' | 'seq'>): Promise<pg.QueryResult<Page>> =>
      client.query<Page>(
        `SELECT json, time, seq FROM messages WHERE topic = $1 AND expires > $2 AND ${where} AND (time, seq) < ($${params.length + 1}, $${params.length + 2}) ORDER BY time DESC, seq DESC LIMIT $${params.length + 3}`,
        [...params, below.time, below.seq, limit],
      );
    const replay = await newestWithin(page, q.maxBytes, since.kind === 'latest');
    replay.json.reverse();
    const maybeLive = q.livePosition === undefined ? [] : await this.maybeLive(client, q.topic, log, positionIn(q.livePosition, log), replay.json);
    const gap = await missedDrop(client, q.topic, since, marker && { ...marker, sameLog: marker.log === log });
    return { ...replay, maybeLive, gap };
  }

  /**
   * Ids of the replayed messages committed after `position`: the newest commits, usually
   * none; a candidate counts only if the replay holds it, which its stored JSON tells.
   */
  private async maybeLive(client: pg.PoolClient, topic: string, log: number, position: number, replayed: readonly string[]): Promise<string[]> {
    const after = await client.query<{ id: string; json: string }>('SELECT id, json FROM messages WHERE log = $1 AND seq > $2 AND topic = $3', [log, position, topic]);
    if (after.rows.length === 0) return [];
    const held = new Set(replayed);
    return after.rows.filter(({ json }) => held.has(json)).map(({ id }) => id);
  }
}

/** The newest rows whose JSON fits `maxBytes`, newest first (`single`: the newest row only). */
async function newestWithin(page: (limit: number, below: Pick<Page, 'time' | 'seq'>) => Promise<pg.QueryResult<Page>>, maxBytes: number, single: boolean): Promise<Omit<Replay, 'maybeLive' | 'gap'>> {
  const json: string[] = [];
  let bytes = 0;
  let below = { time: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };
  let limit = single ? 1 : Math.min(firstPage, rowsWithin(maxBytes));
  for (;;) {
    const { rows } = await page(limit, below);
    for (const row of rows) {
      const size = Buffer.byteLength(row.json);
      if (bytes + size > maxBytes) return { json, bytes, truncated: true };
      bytes += size;
      json.push(row.json);
    }
    const last = rows[rows.length - 1];
    if (single || rows.length < limit || !last) return { json, bytes, truncated: false };
    below = last;
    limit = Math.min(rowsWithin(maxBytes - bytes), firstPage);
  }
}

/** The newest position `db` holds of `log`. */
async function newestOf(db: pg.Pool | pg.PoolClient, log: number): Promise<number> {
  return (await db.query<{ last: number }>('SELECT last FROM log_positions WHERE log = $1', [log])).rows[0]?.last ?? 0;
}
