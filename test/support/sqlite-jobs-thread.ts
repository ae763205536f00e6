import { Worker } from 'node:worker_threads';
import type { JobRepository } from 'agenda';

export interface JobsCall {
  id: number;
  method: keyof JobRepository | 'close';
  args: unknown[];
}
export type JobsReply = { id: number; result: unknown } | { id: number; error: unknown };

/**
 * A SqliteJobRepository in a worker thread of its own. better-sqlite3 is synchronous, so
 * two connections in one thread take turns call by call; two of these on one file lock
 * jobs at the same time and contend for SQLite's write lock, as two processes would.
 */
export class ThreadedJobRepository {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private nextId = 0;
  /** The repository's methods, each a call into the thread (arguments and results are structured clones). */
  readonly repository = new Proxy({} as JobRepository, {
    get: (_, method: keyof JobRepository) => (...args: unknown[]) => this.call(method, args),
  });

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: JobsReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(reply.error);
      else waiting?.resolve(reply.result);
    });
  }

  /** Resolves once the thread opened `file`. */
  static open(file: string): Promise<ThreadedJobRepository> {
    const worker = new Worker(new URL('./sqlite-jobs-worker.js', import.meta.url), { workerData: file });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', () => {
        worker.off('error', reject);
        resolve(new ThreadedJobRepository(worker));
      });
    });
  }

  async close(): Promise<void> {
    await this.call('close', []);
    await this.worker.terminate();
  }

  private call(method: JobsCall['method'], args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args } satisfies JobsCall);
    });
  }
}
