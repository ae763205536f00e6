import { workerData } from 'node:worker_threads';
import type { Outbound } from '../../src/model/outbound.js';
import type { MessageCache } from '../../src/store/message-cache.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { WireEvent } from './sqlite-cache-thread.js';
import { serveCalls } from './worker-calls.js';

/** The thread of a ThreadedSqliteCache: one SQLite store, answering calls in their order. */
const store = openSqliteStore(workerData as string);
const cache = store.cache;

const wire = (events: Outbound[]): WireEvent[] => events.map((e) => [e.json, e.seq ?? 0]);

serveCalls(async (method, args) => {
  if (method === 'close') return store.close();
  if (method === 'release') return wire(await cache.release(...(args as Parameters<MessageCache['release']>)));
  return (cache[method as keyof MessageCache] as (...a: unknown[]) => Promise<unknown>).apply(cache, args);
});
