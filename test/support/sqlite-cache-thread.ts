import { Outbound } from '../../src/model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery, Trimmed } from '../../src/store/message-cache.js';
import { WorkerCalls } from './worker-calls.js';

/** An event as it crosses threads: its JSON and commit sequence number. */
export type WireEvent = [json: string, seq: number];

const events = (wire: WireEvent[]): Outbound[] => wire.map(([json, seq]) => Outbound.stored(json, seq));

/**
 * A SqliteMessageCache in a worker thread of its own. better-sqlite3 is synchronous, so
 * two connections in one thread take turns; two of these on one file write at the same
 * time and contend for SQLite's write lock, as two processes would.
 */
export class ThreadedSqliteCache implements MessageCache {
  private constructor(private readonly calls: WorkerCalls) {}

  /** Resolves once the thread opened `file` (the schema step included). */
  static async open(file: string): Promise<ThreadedSqliteCache> {
    return new ThreadedSqliteCache(await WorkerCalls.open(new URL('./sqlite-cache-worker.js', import.meta.url), file));
  }

  add(entries: readonly CacheEntry[]): Promise<Added> {
    return this.call('add', entries) as Promise<Added>;
  }

  async release(ids: readonly string[]): Promise<Outbound[]> {
    return events((await this.call('release', ids)) as WireEvent[]);
  }

  replay(query: ReplayQuery): Promise<Replay> {
    return this.call('replay', query) as Promise<Replay>;
  }

  prune(nowSeconds: number): Promise<number> {
    return this.call('prune', nowSeconds) as Promise<number>;
  }

  trim(topic: string, keep: number): Promise<Trimmed> {
    return this.call('trim', topic, keep) as Promise<Trimmed>;
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

  waiting(): Promise<number> {
    return this.call('waiting') as Promise<number>;
  }

  bytes(): Promise<number> {
    return this.call('bytes') as Promise<number>;
  }

  loadStats(): Promise<number> {
    return this.call('loadStats') as Promise<number>;
  }

  addStats(messages: number): Promise<number> {
    return this.call('addStats', messages) as Promise<number>;
  }

  import(entries: readonly CacheEntry[]): Promise<number> {
    return this.call('import', entries) as Promise<number>;
  }

  async setImportedStats(messages: number): Promise<void> {
    await this.call('setImportedStats', messages);
  }

  close(): Promise<void> {
    return this.calls.close();
  }

  private call(method: keyof MessageCache, ...args: unknown[]): Promise<unknown> {
    return this.calls.call(method, ...args);
  }
}
