import { InMemoryNotificationChannel, type AgendaBackend } from 'agenda';
import type { Store } from '../store.js';
import { openDatabase } from './database.js';
import { SqliteJobRepository } from './job-repository.js';
import { InProcessFeed } from './live-feed.js';
import { SqliteMessageCache } from './message-cache.js';

/**
 * The embedded store: the cache and the jobs on one SQLite database (memory when `file`
 * is empty). One process owns the file, so job notifications and the live feed stay in
 * memory: a job saved due before the next poll is picked up at once, and a commit goes
 * live without a round trip through the database.
 */
export function openSqliteStore(file: string, startupQueries = ''): Store {
  const db = openDatabase(file, startupQueries);
  const repository = new SqliteJobRepository(db);
  const jobs: AgendaBackend = {
    name: 'SQLite',
    repository,
    notificationChannel: new InMemoryNotificationChannel(),
    ownsConnection: false,
    connect: () => repository.connect(),
    disconnect: async () => undefined,
  };
  const feed = new InProcessFeed();
  return {
    cache: new SqliteMessageCache(db),
    jobs,
    feed,
    close: async () => {
      feed.close();
      db.close();
    },
  };
}
