import { join } from 'node:path';
import { openSqliteStore, sqliteJobBackend } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/server.js';
import { ThreadedJobRepository } from '../support/sqlite-jobs-thread.js';
import { describeJobBackend } from './contracts/job-backend.contract.js';

describeJobBackend('SQLite', async (location) => {
  const file = location ?? join(tempDir(), 'jobs.db');
  const store = openSqliteStore(file);
  return { instance: store.jobs, location: file, close: () => store.close() };
});

// Each instance on a connection in a thread of its own: instances lock at the same time.
describeJobBackend('SQLite, an instance per thread', async (location) => {
  const file = location ?? join(tempDir(), 'jobs.db');
  const threaded = await ThreadedJobRepository.open(file);
  return { instance: sqliteJobBackend(threaded.repository), location: file, close: () => threaded.close() };
});
