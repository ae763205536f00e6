import { PostgresBackend } from '@agendajs/postgres-backend';
import type pg from 'pg';
import type { Store } from '../store.js';
import { PostgresLiveFeed, type PostgresFeedOptions } from './live-feed.js';
import { PostgresMessageCache } from './message-cache.js';

/**
 * The message store on the PostgreSQL database at `url`, on `pool`, whose schema is open
 * (schema.ts): the cache and the live feed (message-cache.ts, live-feed.ts) and Agenda's
 * jobs on @agendajs/postgres-backend (its `FOR UPDATE SKIP LOCKED` locks a job for one
 * node; its LISTEN/NOTIFY wakes every node when a job is saved). `close` stops the feed;
 * the pool is the caller's.
 */
export async function openPostgresMessageStore(url: string, pool: pg.Pool, feedOptions: PostgresFeedOptions): Promise<Store> {
  const feed = await PostgresLiveFeed.open(url, pool, feedOptions);
  return {
    cache: new PostgresMessageCache(pool),
    jobs: new PostgresBackend({ pool, ensureSchema: false }),
    feed,
    close: () => feed.close(),
  };
}
