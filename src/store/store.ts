import type { AgendaBackend } from 'agenda';
import type { LiveFeed } from './live-feed.js';
import type { MessageCache } from './message-cache.js';
import type { ReceiptStore } from './receipt-store.js';

/**
 * Everything Tocsin persists about messages, behind ports: the message cache, the
 * scheduler's jobs (Agenda's own backend interface, whose contract is Agenda's) and the
 * live feed of the cache's commits (`live-feed.ts`). The embedded store puts the cache
 * and the jobs in one SQLite file; the scale-out store will put them in MongoDB. Nothing
 * outside src/store knows which runs. Contract:
 * - The cache and the jobs are kept in one database, so a backup, a restore or a lost
 *   file takes a scheduled message and its job together. The publisher saves the job
 *   before the message commits; a job whose message never committed, or was replaced or
 *   deleted, finds nothing to release (see `MessageCache.release`).
 * - `close` is called once, after the scheduler stopped and the publisher drained; it
 *   waits for nothing in flight, completes the feed, and nothing is called after it.
 */
export interface Store {
  cache: MessageCache;
  jobs: AgendaBackend;
  /** Follows this store's cache: its positions are the cache's commit sequence numbers. */
  feed: LiveFeed;
  /** The receipts of alerts repeated until acknowledged, in the same database as the jobs that repeat them. */
  receipts: ReceiptStore;
  close(): Promise<void>;
}
