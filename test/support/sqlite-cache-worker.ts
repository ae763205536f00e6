import { parentPort, workerData } from 'node:worker_threads';
import type { Outbound } from '../../src/model/outbound.js';
import type { MessageCache } from '../../src/store/message-cache.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Call, Reply, WireEvent } from './sqlite-cache-thread.js';

/** The thread of a ThreadedSqliteCache: one SQLite store, answering calls in their order. */
const port = parentPort;
if (!port) throw new Error('sqlite-cache-worker runs as a worker thread');
const store = openSqliteStore(workerData as string);
const cache = store.cache;

const wire = (events: Outbound[]): WireEvent[] => events.map((e) => [e.json, e.seq ?? 0]);

async function answer({ method, args }: Call): Promise<unknown> {
  if (method === 'close') return store.close();
  if (method === 'release') return wire(await cache.release(...(args as Parameters<MessageCache['release']>)));
  if (method === 'replay') {
    const replay = await cache.replay(...(args as Parameters<MessageCache['replay']>));
    return { ...replay, messages: wire(replay.messages) };
  }
  return (cache[method] as (...a: unknown[]) => Promise<unknown>).apply(cache, args);
}

port.on('message', (call: Call) => {
  answer(call).then(
    (result) => port.postMessage({ id: call.id, result } satisfies Reply),
    (error: unknown) => port.postMessage({ id: call.id, error } satisfies Reply),
  );
});
port.postMessage({ id: -1, result: 'ready' } satisfies Reply);
