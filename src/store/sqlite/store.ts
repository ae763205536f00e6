import { InMemoryNotificationChannel, type AgendaBackend } from 'agenda';
import type { Store } from '../store.js';
import { openDatabase } from './database.js';
import { SqliteJobRepository } from './job-repository.js';
import { SqliteMessageCache } from './message-cache.js';

/**
 * The embedded store: the cache and the jobs on one SQLite database (memory when `file`
 * is empty). Job notifications stay in memory: a job this process saves due before the
 * next poll is picked up at once; one saved by another process on the same file is found
 * by the next poll (every second).
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
  return {
    cache: new SqliteMessageCache(db),
    jobs,
    close: async () => void db.close(),
  };
}
