import type { Observable } from 'rxjs';
import type { Outbound } from '../model/outbound.js';

/** Events that went live together: what one commit handed on. */
export interface FeedBatch {
  /** In commit order; never empty. */
  readonly events: readonly Outbound[];
  /** performance.now() when this process learned of the commit; delivery latency counts from it. */
  readonly committedAt: number;
}

/**
 * Where a feed is: the highest seq it handed on. A store of several ordered logs (the
 * MongoDB store's shards) has one per log, by the log's index: seqs of two logs are not
 * comparable, and a topic's are all in one log.
 */
export type FeedPosition = number | readonly number[];

/** The position in log `log` of a feed at `position`. */
export function positionIn(position: FeedPosition, log: number): number {
  return typeof position === 'number' ? position : (position[log] ?? 0);
}

/** Positions `from` to `to` (inclusive) of log `log` whose events this process can no longer deliver live. */
export interface LostRange {
  readonly from: number;
  readonly to: number;
  /** Absent for a store of one log. */
  readonly log?: number;
  /** Whether `topic`'s events may be among them (those of the topics in `log`); absent: any topic's. */
  readonly covers?: (topic: string) => boolean;
}

/**
 * The live feed port: every committed event that live subscribers must receive, from
 * whichever process committed it. The publisher tells the feed what each batch committed;
 * the topic hub follows `batches$`. The embedded store has one process, so its feed hands
 * a batch on in-process; a store shared by several nodes lets every node's feed bring the
 * commits of all of them. Contract, for every implementation:
 * - `batches$` emits committed events in commit order, each once: stored messages and the
 *   message_delete and message_clear events with their `seq` (strictly increasing);
 *   released scheduled messages under the fresh seq their release took; and `Cache: no`
 *   messages, which are never stored (no `seq`) yet reach live subscribers where their
 *   batch put them. Scheduled messages not yet due are not emitted, nor anything of a
 *   batch whose commit failed.
 * - `position` is the highest seq handed to the followers of `batches$` (one per log, see
 *   FeedPosition; within a log what follows holds as said). It moves only
 *   after they received the batch carrying it: every stored event up to it has reached
 *   them, every later one is still to come. A subscription that attaches to the hub,
 *   reads `position` and then replays the cache thus knows which replayed messages may
 *   still arrive live (those above it): the hand-over has no gap and no duplicate.
 * - `committed` is called by the publisher after each successful commit, in commit order,
 *   with the batch's events to go live (stored, released and uncached, never none). The
 *   publisher answers the batch once they are on their way to every subscriber: when
 *   `committed` returns, or when the promise it returns resolves (a rejection fails the
 *   batch's publishes). A feed that tails the database may leave the stored events to its
 *   cursor and pass the uncached ones (those without `seq`) through the database, answering
 *   with the promise of that write; a feed that hands the batch on in the call returns
 *   nothing, which spares the publisher an await per batch (4% of the pipeline's CPU,
 *   measured with 100 subscribers in process).
 * - `lost$`, for a feed that can fail to read what was committed (a node that fell behind a
 *   log that drops its oldest entries, or found a batch it handed on replaced after a
 *   failover), emits each range of positions it will never hand on, once, before
 *   `batches$` emits anything of its log after it. Which topics those events had is unknown,
 *   beyond which topics their log holds (`covers`). A feed
 *   that cannot lose (the embedded one hands each batch on in-process) has no `lost$`.
 * - `batches$` and `lost$` complete when the store closes.
 */
export interface LiveFeed {
  readonly batches$: Observable<FeedBatch>;
  readonly lost$?: Observable<LostRange>;
  readonly position: FeedPosition;
  committed(events: readonly Outbound[]): Promise<void> | undefined;
}
