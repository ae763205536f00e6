import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * Another process's writer, in a thread: takes the write lock of the SQLite file
 * `workerData.file`, says 'locked', holds it `workerData.ms` milliseconds and commits.
 * The store under test waits in SQLite's busy handler, which blocks its own thread, so the
 * lock has to be held and let go from another one.
 */
const { file, ms } = workerData as { file: string; ms: number };
const db = new Database(file);
db.pragma('busy_timeout = 5000');
db.exec('BEGIN IMMEDIATE');
parentPort?.postMessage('locked');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
db.exec('COMMIT');
db.close();
