import { shardOf } from '../topic-logs.js';

/** The channel every commit notifies (payload: its log); PostgreSQL delivers it when the commit does. */
export const logChannel = 'tocsin_log';

/**
 * `insert` (an INSERT … SELECT whose FROM names `positions` and `bell`) at the next $2
 * positions of log $1, after `base`, notifying the log's listeners. The UPDATE takes the
 * positions under the log row's lock, which the transaction holds until it commits: a
 * commit takes positions after every commit before it, so a reader by position never
 * sees a later commit before an earlier one, and every statement is one round trip.
 */
export const atNextPositions = (insert: string): string => `
  WITH positions AS (UPDATE log_positions SET last = last + $2 WHERE log = $1 RETURNING last - $2 AS base),
  bell AS (SELECT pg_notify('${logChannel}', $1::text))
  ${insert}`;

/**
 * The indexes of `items` by the log of their topic, logs ascending: the order in which a
 * transaction writing to several logs takes their rows' locks, so that two such
 * transactions cannot deadlock.
 */
export function byLog(items: readonly { topic: string }[], logs: number): [number, number[]][] {
  const groups = new Map<number, number[]>();
  items.forEach(({ topic }, i) => {
    const log = logOf(topic, logs);
    const group = groups.get(log);
    if (group) group.push(i);
    else groups.set(log, [i]);
  });
  return [...groups].sort(([a], [b]) => a - b);
}

/** The log of `topic` among `logs`. */
export const logOf = (topic: string, logs: number): number => (logs === 1 ? 0 : shardOf(topic, logs));
