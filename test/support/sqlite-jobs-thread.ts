import type { JobRepository } from 'agenda';
import { WorkerCalls } from './worker-calls.js';

/**
 * A SqliteJobRepository in a worker thread of its own. better-sqlite3 is synchronous, so
 * two connections in one thread take turns call by call; two of these on one file lock
 * jobs at the same time and contend for SQLite's write lock, as two processes would.
 */
export class ThreadedJobRepository {
  /** The repository's methods, each a call into the thread. */
  readonly repository = new Proxy({} as JobRepository, {
    get: (_, method: string) => (...args: unknown[]) => this.calls.call(method, ...args),
  });

  private constructor(private readonly calls: WorkerCalls) {}

  /** Resolves once the thread opened `file`. */
  static async open(file: string): Promise<ThreadedJobRepository> {
    return new ThreadedJobRepository(await WorkerCalls.open(new URL('./sqlite-jobs-worker.js', import.meta.url), file));
  }

  close(): Promise<void> {
    return this.calls.close();
  }
}
