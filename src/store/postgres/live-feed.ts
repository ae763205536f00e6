import pg from 'pg';
import { Subject } from 'rxjs';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { FeedBatch, FeedPosition, LiveFeed } from '../live-feed.js';
import { writeFailure } from './errors.js';
import { atNextPositions, byLog, logChannel } from './log.js';
import type { StorePool } from './pool.js';

export interface PostgresFeedOptions {
  /** A read or the listening connection failed; the feed reads again, and listens again. */
  onError(err: unknown): void;
  /** How often the feed reads without a notification (a connection that died unnoticed). */
  checkMs: number;
  /** Pause before listening again after the listening connection was lost. */
  retryMs: number;
  /** How many logs topics hash into (schema.ts); 1 by default. */
  logs?: number;
}

/** Rows a read takes at most; a node behind reads on at once. */
const page = 1000;

/**
 * What follows the feed's read positions ($1 the logs, $2 the position in each): each log's
 * rows and its `Cache: no` events, in position order, at most $3 a log. One statement for
 * every log: on a database a round trip away, a read per log made several logs slower than one.
 */
const readSql = `
  SELECT p.log, r.seq, r.json, r.published, r.uncached
  FROM unnest($1::int[], $2::int8[]) AS p(log, after)
  CROSS JOIN LATERAL (
    SELECT seq, json, published, false AS uncached FROM messages WHERE log = p.log AND seq > p.after
    UNION ALL
    SELECT seq, json, true, true FROM live_events WHERE log = p.log AND seq > p.after
    ORDER BY seq LIMIT $3
  ) r
  ORDER BY p.log, r.seq`;

interface FeedRow {
  log: number;
  seq: number;
  json: string;
  published: boolean;
  uncached: boolean;
}

/** `Cache: no` events at the next positions of the log, in order (their batch's stored events went in before). */
const insertUncached = atNextPositions(`INSERT INTO live_events (log, seq, time, json)
  SELECT $1, base + ord, $3, json FROM positions, bell, unnest($4::text[]) WITH ORDINALITY AS r(json, ord)`);

/** How long `Cache: no` events stay for a node that fell behind (they are live only): seconds. */
const uncachedKeptSeconds = 60;

/**
 * The live feed of a node on PostgreSQL: the table is the truth, NOTIFY the wake-up. Every
 * commit notifies `tocsin_log` in its transaction (delivered when it commits), and each node
 * listens on a connection of its own; a notification, a commit of this node, and a check
 * every `checkMs` make it read what follows its position, in position order, which is
 * commit order (positions are taken under the log row's lock: schema.ts). A notification
 * lost with its connection costs nothing but the wait for the next read: the node listens
 * again and reads on from where it was, as after a start. Scheduled messages not yet due
 * are read past, not emitted; `Cache: no` events come from `live_events`, written by
 * `committed` as a commit of their own after their batch's stored events.
 */
export class PostgresLiveFeed implements LiveFeed {
  private readonly subject = new Subject<FeedBatch>();
  readonly batches$ = this.subject.asObservable();
  /** By log: the last position read, waiting and `Cache: no` rows included. */
  private readonly readAt: number[];
  /** By log: the highest seq handed on (`position`). */
  private readonly handed: number[];
  private reading = false;
  private readAgain = false;
  private closed = false;
  private listener: pg.Client | undefined;
  private readonly checks: NodeJS.Timeout;
  /** When this node last deleted old `Cache: no` events (seconds). */
  private forgotAt = 0;

  private constructor(
    private readonly pool: StorePool,
    start: readonly number[],
    private readonly options: PostgresFeedOptions,
  ) {
    this.readAt = [...start];
    this.handed = [...start];
    this.checks = setInterval(() => {
      this.wake();
      this.forgetUncached();
    }, options.checkMs).unref();
  }

  /** Follows the log from its newest position (what came before is the cache's to replay), listening on a connection of its own. */
  static async open(pool: StorePool, options: PostgresFeedOptions): Promise<PostgresLiveFeed> {
    const { rows } = await pool.query<{ last: number }>('SELECT last FROM log_positions WHERE log < $1 ORDER BY log', [options.logs ?? 1]);
    const start = rows.map(({ last }) => last);
    const feed = new PostgresLiveFeed(pool, start, options);
    try {
      await feed.listen();
    } catch (err) {
      await feed.close();
      throw err;
    }
    return feed;
  }

  get position(): FeedPosition {
    return this.handed.length === 1 ? (this.handed[0] as number) : [...this.handed];
  }

  committed(events: readonly Outbound[]): Promise<void> | undefined {
    // This node's stored events are read at once, not when its own notification comes back.
    this.wake();
    const uncached = events.filter((e) => e.seq === undefined);
    if (uncached.length === 0) return undefined;
    return this.storeUncached(uncached).catch((err: unknown) => Promise.reject(writeFailure(err)));
  }

  /** `Cache: no` events into their topics' logs, logs ascending (one statement each: they are live only, none waits for another). */
  private async storeUncached(events: readonly Outbound[]): Promise<void> {
    const time = Math.floor(Date.now() / 1000);
    for (const [log, indexes] of byLog(events.map((e) => e.head), this.handed.length)) {
      await this.pool.query(insertUncached, [log, indexes.length, time, indexes.map((i) => (events[i] as Outbound).json)]);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.checks);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    this.subject.complete();
  }

  /** Deletes the `Cache: no` events older than uncachedKeptSeconds, once in that time per node. */
  private forgetUncached(): void {
    const now = Math.floor(Date.now() / 1000);
    if (now - this.forgotAt < uncachedKeptSeconds) return;
    this.forgotAt = now;
    this.pool.query('DELETE FROM live_events WHERE time < $1', [now - uncachedKeptSeconds]).catch((err: unknown) => this.options.onError(err));
  }

  private async listen(): Promise<void> {
    const client = await this.pool.dedicated();
    client.on('notification', () => this.wake());
    client.on('error', (err) => {
      this.options.onError(err);
      this.listenAgain(client);
    });
    client.on('end', () => this.listenAgain(client));
    try {
      await client.query(`LISTEN ${logChannel}`);
    } catch (err) {
      // Not the listener yet: ended here, or each retry would leave a connection open.
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) return void (await client.end());
    this.listener = client;
    // What committed before the LISTEN took effect has no notification to come.
    this.wake();
  }

  private listenAgain(lost: pg.Client): void {
    if (this.closed || this.listener !== lost) return;
    this.listener = undefined;
    const retry = (): void => {
      if (this.closed) return;
      this.listen().catch((err: unknown) => {
        this.options.onError(err);
        setTimeout(retry, this.options.retryMs).unref();
      });
    };
    setTimeout(retry, this.options.retryMs).unref();
  }

  /** Reads what follows the position: now, or after the read in flight. */
  private wake(): void {
    if (this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.readAll()
      .catch((err: unknown) => this.options.onError(err))
      .finally(() => {
        this.reading = false;
        if (!this.readAgain) return;
        this.readAgain = false;
        this.wake();
      });
  }

  private async readAll(): Promise<void> {
    // Every log, then again those that filled a page.
    for (let logs = this.readAt.map((_, log) => log); logs.length > 0; ) {
      const { rows } = await this.pool.query<FeedRow>(readSql, [logs, logs.map((log) => this.readAt[log]), page]);
      if (this.closed) return;
      const full: number[] = [];
      for (const [log, own] of rowsByLog(rows)) {
        this.hand(log, own);
        if (own.length === page) full.push(log);
      }
      logs = full;
    }
  }

  private hand(log: number, rows: readonly FeedRow[]): void {
    const last = rows[rows.length - 1];
    if (!last) return;
    this.readAt[log] = last.seq;
    const events = rows.flatMap(({ seq, json, published, uncached }): Outbound[] => {
      if (uncached) return [Outbound.of(JSON.parse(json) as Message, json)];
      return published ? [Outbound.stored(json, seq)] : [];
    });
    if (events.length > 0) this.subject.next({ events, committedAt: performance.now() });
    // Only now: a subscription attaching meanwhile counts this batch's messages as still to come.
    for (const event of events) if (event.seq !== undefined && event.seq > (this.handed[log] as number)) this.handed[log] = event.seq;
  }
}

/** `rows` (ordered by log, then position) as each log's run of them. */
function rowsByLog(rows: readonly FeedRow[]): Map<number, FeedRow[]> {
  const runs = new Map<number, FeedRow[]>();
  for (const row of rows) {
    const run = runs.get(row.log);
    if (run) run.push(row);
    else runs.set(row.log, [row]);
  }
  return runs;
}
