import type { Db } from 'mongodb';
import type { LiveFeed } from '../live-feed.js';
import type { MessageCache } from '../message-cache.js';
import { MongoLiveFeed } from './live-feed.js';
import { MongoMessageCache } from './message-cache.js';
import { MessageLog } from './message-log.js';
import type { TailOptions } from './message-log-tail.js';

/** What the log and its tail report as they go (the metrics); each call must be O(1). */
export interface LogObserver {
  /** An insert found its position taken by another writer (the `_id` chain) and tries the next. */
  chainRetried(): void;
  /** Positions committed to the log that this node's tail has not read yet, as it last saw them. */
  tailLag(positions: number): void;
}

export interface MessageStoreOptions {
  /** The capped log's size in bytes: what the cache holds at most (cache-size-limit). */
  capBytes: number;
  /**
   * Where failures that do not fail a call go (a lost cursor, a clean-up after a commit),
   * and a resize of the log to `capBytes` (a warning).
   */
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
  /** The tail's timings; the defaults suit a server. */
  tail?: Partial<TailOptions>;
  observer?: LogObserver | undefined;
}

export interface MongoMessageStore {
  cache: MessageCache;
  feed: LiveFeed & { lost$: MongoLiveFeed['lost$'] };
  /** Stops the feed's cursor and completes it; the caller closes the client afterwards. */
  close(): Promise<void>;
}

/**
 * A getMore waits up to a second for new batches (FerretDB polls every 10 ms meanwhile, so
 * a wait costs it little); a cursor is reopened every 1,000 batches (see LogTail).
 */
const tailDefaults: TailOptions = { awaitMs: 1000, reopenAfter: 1000, retryMs: 100 };

/** The message cache and live feed of one node on database `db`, shared with every node on it. */
export async function openMongoMessageStore(db: Db, options: MessageStoreOptions): Promise<MongoMessageStore> {
  const log = await MessageLog.open(db, options.capBytes, (details, message) => options.log.warn(details, message));
  const cache = await MongoMessageCache.open(db, log, (err) => options.log.error({ err }, 'message cache: a clean-up after a commit failed'));
  const feed = await MongoLiveFeed.open(db, log, {
    ...tailDefaults,
    ...options.tail,
    onError: (err) => options.log.error({ err }, 'live feed: the log cursor failed; reopening it at the last batch read'),
    // Reported on `lost$` too, which the server follows: it ends the live streams and logs
    // each range with how many it ended (transports/subscribe/lost-range.ts).
    onLost: () => undefined,
  });
  return { cache, feed, close: () => feed.close() };
}
