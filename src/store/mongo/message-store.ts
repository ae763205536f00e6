import type { Db } from 'mongodb';
import type { LiveFeed } from '../live-feed.js';
import type { MessageCache } from '../message-cache.js';
import { MongoLiveFeed } from './live-feed.js';
import { MongoMessageCache } from './message-cache.js';
import { LogShards } from './log-shards.js';
import type { PeerPresence } from '../peer-store.js';
import { PeerRegistry } from './peer-registry.js';
import { MongoPeerStore } from './peer-store.js';
import type { PeerStore } from '../peer-store.js';
import type { TailOptions } from './message-log-tail.js';

/** What the log and its tail report as they go (the metrics); each call must be O(1). */
export interface LogObserver {
  /** An insert found its position taken by another writer (the `_id` chain) and tries the next. */
  chainRetried(): void;
  /** Positions committed to the log that this node's tail has not read yet, as it last saw them. */
  tailLag(positions: number): void;
}

export interface MessageStoreOptions {
  /** The capped logs' size in bytes, all together: what the cache holds at most (cache-size-limit). */
  capBytes: number;
  /** How many logs topics hash into (database-shards); 0: as many as the database has (see LogShards). */
  shards: number;
  /**
   * Where failures that do not fail a call go (a failed read of the tail, a clean-up after a commit),
   * and a resize of the log to `capBytes` (a warning).
   */
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
  /** The tail's timings; the defaults suit a server. */
  tail?: Partial<TailOptions>;
  observer?: LogObserver | undefined;
}

export interface MongoMessageStore {
  cache: MessageCache;
  peers: PeerStore;
  feed: LiveFeed & { lost$: MongoLiveFeed['lost$'] };
  /** Stops the feed's tail and completes it, then writes what the cache holds back; the caller closes the client afterwards. */
  close(): Promise<void>;
}

/**
 * A quiet log is read every 2 ms, then less often up to every 20 ms (a node's own commits
 * wake its tail at once; another node's reach it within that); its ends are compared
 * with the tail's position every second (see LogTail).
 */
const tailDefaults: TailOptions = { pollMs: 2, idlePollMs: 20, checkMs: 1000, retryMs: 100 };

/** The message cache and live feed of one node on database `db`, shared with every node on it. */
export async function openMongoMessageStore(db: Db, options: MessageStoreOptions): Promise<MongoMessageStore> {
  const observer = options.observer;
  const presence: PeerPresence = { linked: 0, all: false };
  const shards = await LogShards.open(db, options.shards, options.capBytes, {
    warn: (details, message) => options.log.warn(details, message),
    ...(observer && { retried: () => observer.chainRetried() }),
  }, presence);
  const cache = await MongoMessageCache.open(db, shards, (err) => options.log.error({ err }, 'message cache: a clean-up after a commit failed'));
  const feed = await MongoLiveFeed.open(shards, {
    ...tailDefaults,
    ...options.tail,
    onError: (err) => options.log.error({ err }, 'live feed: a read of the log failed; reading again after the last batch handed on'),
    ...(observer && { onLag: (positions: number) => observer.tailLag(positions) }),
  });
  return {
    cache,
    feed,
    peers: new MongoPeerStore(shards.logs, presence, PeerRegistry.open(db)),
    close: async () => {
      await feed.close();
      await cache.close();
    },
  };
}
