import { InMemoryNotificationChannel, type AgendaBackend, type JobRepository } from 'agenda';
import type { Store } from '../store.js';
import { openDatabase } from './database.js';
import { IdleCheckpoints } from './idle-checkpoints.js';
import { SqliteJobRepository } from './job-repository.js';
import { InProcessFeed } from './live-feed.js';
import { SqliteMessageCache } from './message-cache.js';
import { SqliteReceiptStore } from './receipt-store.js';

/**
 * The embedded store: the cache and the jobs on one SQLite database (memory when `file`
 * is empty), its WAL checkpointed between publishes when the load allows
 * (idle-checkpoints.ts). Job notifications stay in memory: a job this process saves due
 * before the next poll is picked up at once; one saved by another process on the same
 * file is found by the next poll (every second). The live feed is in memory too: a commit
 * goes live without a round trip through the database, so this process's subscribers see
 * only this process's publishes (a backend for several nodes tails its database instead).
 */
export function openSqliteStore(file: string, startupQueries = ''): Store & { ping(): Promise<void> } {
  const db = openDatabase(file, startupQueries);
  const checkpoints = IdleCheckpoints.start(db, file);
  // A read of the schema page (in WAL mode readers wait for no writer): what any query needs first.
  const ping = db.prepare('SELECT 1 FROM sqlite_master LIMIT 1');
  const cache = new SqliteMessageCache(db, () => checkpoints?.committed());
  const feed = new InProcessFeed(cache.newestSeq());
  return {
    cache,
    jobs: sqliteJobBackend(new SqliteJobRepository(db)),
    feed,
    receipts: new SqliteReceiptStore(db),
    ping: async () => void ping.get(),
    close: async () => {
      feed.close();
      checkpoints?.close();
      db.close();
    },
  };
}

/** Agenda's backend on the jobs `repository` of an SQLite database; the store closes the database. */
export function sqliteJobBackend(repository: JobRepository): AgendaBackend {
  return {
    name: 'SQLite',
    repository,
    notificationChannel: new InMemoryNotificationChannel(),
    ownsConnection: false,
    connect: () => repository.connect(),
    disconnect: async () => undefined,
  };
}
