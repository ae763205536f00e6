import { workerData } from 'node:worker_threads';
import type { JobRepository } from 'agenda';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteJobRepository } from '../../src/store/sqlite/job-repository.js';
import { serveCalls } from './worker-calls.js';

/** The thread of a ThreadedJobRepository: one SQLite connection, answering calls in their order. */
const db = openDatabase(workerData as string, '');
const repository = new SqliteJobRepository(db);

serveCalls(async (method, args) => {
  if (method === 'close') return db.close();
  return (repository[method as keyof JobRepository] as (...a: unknown[]) => Promise<unknown>).apply(repository, args);
});
