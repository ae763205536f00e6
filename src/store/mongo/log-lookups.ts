import type { Collection } from 'mongodb';
import type { LogBatch } from './message-log.js';

/**
 * Reads of the log that stay bounded on FerretDB 1.24 as on MongoDB. FerretDB on
 * PostgreSQL hands only equality filters to SQL (`{ids: id}` becomes
 * `_jsonb->'ids' @> '"id"'`, which matches an element of the array) and a limit only when
 * there is neither filter nor sort; `$in`, `$gt` and sorts on fields are applied in Go after
 * reading every document of the collection (seen with PostgreSQL's log_statement). So:
 * one equality lookup per id, and the oldest batch by the capped collection's natural
 * order (`ORDER BY _ferretdb_record_id LIMIT 1` there, the first record on MongoDB).
 */

/** How many lookups run at once: a node's pool holds 10 connections (open.ts). */
const lookupsAtOnce = 4;

/** `find` of each of `keys`, a few at a time, in order: equality lookups instead of one `$in`. */
export async function lookUp<K, T>(keys: readonly K[], find: (key: K) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < keys.length; i += lookupsAtOnce) results.push(...(await Promise.all(keys.slice(i, i + lookupsAtOnce).map(find))));
  return results;
}

/** The batches holding any of `ids` (stored and waiting messages), each once. */
export async function batchesHolding(batches: Collection<LogBatch>, ids: readonly string[], projection?: Partial<Record<keyof LogBatch, 1>>): Promise<LogBatch[]> {
  const hits = await lookUp(ids, (id) => batches.find({ ids: id }, projection && { projection: { ...projection, _id: 1 } }).toArray());
  return [...new Map(hits.flat().map((batch) => [batch._id, batch])).values()];
}

/** The oldest batch the capped log still holds: its first position and its events' earliest time. */
export interface OldestHeld {
  first: number;
  /** -Infinity while the log holds its first batch (nothing left it yet). */
  time: number;
}

export async function oldestHeld(batches: Collection<LogBatch>): Promise<OldestHeld | undefined> {
  const [oldest] = await batches.find({}, { projection: { _id: 1, 'events.time': 1 } }).limit(1).toArray();
  if (!oldest) return undefined;
  if (oldest._id === 1) return { first: 1, time: -Infinity };
  const times = oldest.events.map((e) => e.time);
  return { first: oldest._id, time: times.length === 0 ? -Infinity : Math.min(...times) };
}

/**
 * The earliest time the logs surely still hold: the oldest of their oldest batches'
 * (-Infinity while one of them holds its first batch, or none holds any).
 */
export async function heldSince(logs: readonly { batches: Collection<LogBatch> }[]): Promise<number> {
  const oldest = await Promise.all(logs.map((log) => oldestHeld(log.batches)));
  return Math.min(...oldest.map((o) => o?.time ?? -Infinity));
}
