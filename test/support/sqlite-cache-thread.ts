import { Worker } from 'node:worker_threads';
import { Outbound } from '../../src/model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery } from '../../src/store/message-cache.js';

export interface Call {
  id: number;
  method: keyof MessageCache | 'close';
  args: unknown[];
}
export type Reply = { id: number; result: unknown } | { id: number; error: unknown };
/** An event as it crosses threads: its JSON and commit sequence number. */
export type WireEvent = [json: string, seq: number];

const events = (wire: WireEvent[]): Outbound[] => wire.map(([json, seq]) => Outbound.stored(json, seq));

/**
 * A SqliteMessageCache in a worker thread of its own. better-sqlite3 is synchronous, so
 * two connections in one thread take turns; two of these on one file write at the same
 * time and contend for SQLite's write lock, as two processes would.
 */
export class ThreadedSqliteCache implements MessageCache {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private nextId = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(reply.error);
      else waiting?.resolve(reply.result);
    });
    worker.on('error', (err) => {
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    });
  }

  /** Resolves once the thread opened `file` (the schema step included). */
  static open(file: string): Promise<ThreadedSqliteCache> {
    const worker = new Worker(new URL('./sqlite-cache-worker.js', import.meta.url), { workerData: file });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', () => {
        worker.off('error', reject);
        resolve(new ThreadedSqliteCache(worker));
      });
    });
  }

  add(entries: readonly CacheEntry[]): Promise<Added> {
    return this.call('add', entries) as Promise<Added>;
  }

  async release(ids: readonly string[]): Promise<Outbound[]> {
    return events((await this.call('release', ids)) as WireEvent[]);
  }

  async replay(query: ReplayQuery): Promise<Replay> {
    const replay = (await this.call('replay', query)) as { messages: WireEvent[]; truncated: boolean };
    return { ...replay, messages: events(replay.messages) };
  }

  prune(nowSeconds: number): Promise<number> {
    return this.call('prune', nowSeconds) as Promise<number>;
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    await this.call('dropAttachments', ids);
  }

  topics(): Promise<Set<string>> {
    return this.call('topics') as Promise<Set<string>>;
  }

  count(): Promise<number> {
    return this.call('count') as Promise<number>;
  }

  loadStats(): Promise<number> {
    return this.call('loadStats') as Promise<number>;
  }

  addStats(messages: number): Promise<number> {
    return this.call('addStats', messages) as Promise<number>;
  }

  async close(): Promise<void> {
    await this.call('close');
    await this.worker.terminate();
  }

  private call(method: Call['method'], ...args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args } satisfies Call);
    });
  }
}
