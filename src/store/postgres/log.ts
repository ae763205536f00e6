import { positionIn, type FeedPosition } from '../live-feed.js';

/** The log every commit goes to: one for now (topics will hash into several, as on MongoDB). */
export const log = 0;

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

/** The position in this store's log of a feed at `position`. */
export const positionInLog = (position: FeedPosition): number => positionIn(position, log);
