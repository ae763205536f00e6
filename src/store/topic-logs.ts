/**
 * Logs of a new database when `database-shards` is 0. One: a commit writes each log it
 * touches (on PostgreSQL, takes each one's position row), so on FerretDB (each insert and
 * lookup a round trip and a table scan) 8 logs halved the throughput of publishes spread
 * over 64 topics, on one node and on three (bench/README.md, "Logs"); more logs pay where
 * round trips are cheap and a log's chain, not the database, is the limit.
 */
export const defaultShards = 1;

/**
 * Where a topic's messages are logged in a store of several ordered logs (`database-shards`:
 * the MongoDB store's capped logs, the PostgreSQL store's position rows). Shared by both so
 * a database's topics sit in the same log whichever backend reads the setting.
 *
 * FNV-1a (32 bits) of the topic's UTF-16 code units, modulo `count`: where a topic's
 * messages are logged. It must never change, or a database's topics would move away from
 * their history; a hash of our own for that reason (a library's could change its output).
 */
export function shardOf(topic: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < topic.length; i++) hash = Math.imul(hash ^ topic.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

