import { Subject, type Observable } from 'rxjs';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { FeedBatch, LiveFeed, LostRange } from '../live-feed.js';
import type { LogShards } from './log-shards.js';
import type { LogBatch, LogEvent } from './message-log.js';
import { LogTail, type TailOptions } from './message-log-tail.js';
import { writeFailure } from './write-error.js';

export interface FeedOptions extends TailOptions {
  /** A read of the tail failed; it reads again. */
  onError(err: unknown): void;
  /** The tail's lag in positions, every `checkMs`. */
  onLag?(positions: number): void;
}

/**
 * The live feed of a node on the MongoDB logs: every node tails every log (message-log-tail.ts,
 * one tail per shard of log-shards.ts), so every node's subscribers get every commit,
 * whichever node made it, in position order within each log, hence within each topic.
 * Stored and released events reach the log through the cache; `committed` writes only the
 * `Cache: no` events, as a log batch of their own, and answers with that write. They thus
 * come after the stored events of the same publish batch (which the cache wrote first),
 * never before anything committed earlier: concurrent publishes have no order to keep
 * between them, and a publish answered before another started is in the log before it.
 *
 * A node that falls behind the capped log's tail (positions dropped before it read them)
 * does not skip them silently: each lost range is emitted on `lost$`, which the server
 * follows to end the live streams of that log's topics so that their clients reconnect
 * with `since=` and read what the cache still has (transports/subscribe/lost-range.ts).
 */
export class MongoLiveFeed implements LiveFeed {
  private readonly subject = new Subject<FeedBatch>();
  private readonly lost = new Subject<LostRange>();
  /** By log: the highest position handed on. */
  private readonly handed: number[];
  private readonly tails: LogTail[];
  readonly batches$ = this.subject.asObservable();
  readonly lost$: Observable<LostRange> = this.lost.asObservable();

  /** Follows each log from its newest batch: what came before is the cache's to replay. */
  static async open(shards: LogShards, options: FeedOptions): Promise<MongoLiveFeed> {
    const newest = await Promise.all(shards.logs.map((log) => log.newest()));
    if (newest.some((batch) => !batch)) throw new Error('a message log holds no batch to follow from');
    return new MongoLiveFeed(shards, newest as LogBatch[], options);
  }

  private constructor(
    private readonly shards: LogShards,
    starts: LogBatch[],
    options: FeedOptions,
  ) {
    this.handed = starts.map((start) => start.last);
    // One lag for the node: each tail's, the largest of them since the last report.
    const lags = starts.map(() => 0);
    this.tails = shards.logs.map((log, shard) => new LogTail(log, starts[shard] as LogBatch, {
      batch: (batch) => this.hand(shard, batch),
      lost: (range) => this.lost.next(shards.logs.length > 1 ? { ...range, log: shard, covers: (topic) => shards.index(topic) === shard } : range),
      error: options.onError,
      ...(options.onLag && {
        lag: (positions: number) => {
          lags[shard] = positions;
          options.onLag?.(Math.max(...lags));
        },
      }),
    }, options));
  }

  get position(): number | readonly number[] {
    return this.handed.length === 1 ? (this.handed[0] as number) : [...this.handed];
  }

  committed(events: readonly Outbound[]): Promise<void> | undefined {
    const uncached = events.filter((e) => e.seq === undefined).map(toUncachedEvent);
    if (uncached.length === 0) return undefined;
    return Promise.all([...this.shards.split(uncached)].map(([log, own]) => log.append({ events: own }))).then(
      () => undefined,
      (err: unknown) => Promise.reject(writeFailure(err)),
    );
  }

  async close(): Promise<void> {
    for (const tail of this.tails) tail.stop();
    this.subject.complete();
    this.lost.complete();
  }

  private hand(shard: number, batch: LogBatch): void {
    const events = batch.events.flatMap((event, i) => toOutbound(event, batch._id + i));
    if (events.length > 0) this.subject.next({ events, committedAt: performance.now() });
    // Only now: a subscription attaching meanwhile counts this batch's messages as still to come.
    for (const event of events) if (event.seq !== undefined && event.seq > (this.handed[shard] as number)) this.handed[shard] = event.seq;
  }
}

function toOutbound(event: LogEvent, pos: number): Outbound[] {
  switch (event.kind) {
    case 'stored':
    case 'released':
      return [Outbound.stored(event.json, pos)];
    case 'uncached':
      return [Outbound.of(JSON.parse(event.json) as Message, event.json)];
    case 'waiting':
    case 'cancelled':
      return [];
  }
}

function toUncachedEvent(event: Outbound): LogEvent {
  const { id, topic, time } = event.head;
  return { id, topic, time, expires: 0, json: event.json, kind: 'uncached' };
}
