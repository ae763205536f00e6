import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteJobRepository } from '../../src/store/sqlite/job-repository.js';
import type { JobsCall, JobsReply } from './sqlite-jobs-thread.js';

/** The thread of a threaded job repository: one SQLite connection, answering calls in their order. */
const port = parentPort;
if (!port) throw new Error('sqlite-jobs-worker runs as a worker thread');
const db = openDatabase(workerData as string, '');
const repository = new SqliteJobRepository(db);

port.on('message', ({ id, method, args }: JobsCall) => {
  const answer = method === 'close' ? Promise.resolve(db.close()) : (repository[method] as (...a: unknown[]) => Promise<unknown>).apply(repository, args);
  answer.then(
    (result) => port.postMessage({ id, result } satisfies JobsReply),
    (error: unknown) => port.postMessage({ id, error } satisfies JobsReply),
  );
});
port.postMessage({ id: -1, result: 'ready' } satisfies JobsReply);
