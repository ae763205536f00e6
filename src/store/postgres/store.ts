import { PostgresBackend } from '@agendajs/postgres-backend';
import type { Store } from '../store.js';
import { PostgresLiveFeed, type PostgresFeedOptions } from './live-feed.js';
import { PostgresMessageCache } from './message-cache.js';
import { openPool } from './pool.js';
import { openSchema } from './schema.js';

/**
 * The message store on the PostgreSQL database at `url`: the cache and the live feed
 * (message-cache.ts, live-feed.ts) and Agenda's jobs on @agendajs/postgres-backend (its
 * `FOR UPDATE SKIP LOCKED` locks a job for one node; its LISTEN/NOTIFY wakes every node
 * when a job is saved), on one pool; the schema is made first (schema.ts).
 */
export async function openPostgresStore(url: string, feedOptions: PostgresFeedOptions): Promise<Store> {
  const pool = openPool(url);
  try {
    await openSchema(pool);
    const feed = await PostgresLiveFeed.open(url, pool, feedOptions);
    return {
      cache: new PostgresMessageCache(pool),
      jobs: new PostgresBackend({ pool, ensureSchema: false }),
      feed,
      close: async () => {
        await feed.close();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end();
    throw err;
  }
}
