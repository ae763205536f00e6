import { PostgresBackend } from '@agendajs/postgres-backend';
import type { Store } from '../store.js';
import { PostgresLiveFeed, type PostgresFeedOptions } from './live-feed.js';
import { PostgresMessageCache, type PostgresCacheOptions } from './message-cache.js';
import type { StorePool } from './pool.js';
import { PostgresReceiptStore } from './receipt-store.js';

/**
 * The message store on the PostgreSQL database of `pool`, whose schema is open
 * (schema.ts): the cache and the live feed (message-cache.ts, live-feed.ts) and Agenda's
 * jobs on @agendajs/postgres-backend (its `FOR UPDATE SKIP LOCKED` locks a job for one
 * node; its LISTEN/NOTIFY wakes every node when a job is saved; `jobsListenError` hears
 * of its listening connection's failures). `cacheOptions`: its logs, and the replicas
 * replays may read from. `close` stops the feed; the pools are the caller's.
 */
export async function openPostgresMessageStore(pool: StorePool, feedOptions: PostgresFeedOptions, jobsListenError: (err: unknown) => void, cacheOptions: PostgresCacheOptions = {}): Promise<Store> {
  const feed = await PostgresLiveFeed.open(pool, { ...feedOptions, logs: cacheOptions.logs });
  const jobs = new PostgresBackend({ pool, ensureSchema: false });
  // Its LISTEN connection listens again by itself when lost, but says so with an 'error'
  // event, which without a listener would end the process.
  jobs.notificationChannel?.on('error', jobsListenError);
  return {
    cache: new PostgresMessageCache(pool, cacheOptions),
    jobs,
    feed,
    receipts: new PostgresReceiptStore(pool),
    close: () => feed.close(),
  };
}
