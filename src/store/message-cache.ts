import type { Message } from '../model/message.js';
import type { Outbound } from '../model/outbound.js';
import type { FeedPosition } from './live-feed.js';

/** Where a replay starts (ntfy's `since=` marker). */
export type Since =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'latest' }
  | { kind: 'time'; time: number }
  | { kind: 'id'; id: string };

export interface ReplayQuery {
  topic: string;
  since: Since;
  /** Include scheduled messages that are not yet due. */
  scheduled: boolean;
  /** Keep only the newest messages whose JSON fits in this many bytes. */
  maxBytes: number;
  /**
   * The live feed's position when the subscription attached (`LiveFeed.position`), for a
   * subscription that goes on live: the replayed messages committed after it may still
   * arrive live, and `Replay.maybeLive` names them.
   */
  livePosition?: FeedPosition;
}

export interface Replay {
  /**
   * The messages' JSON exactly as stored, oldest first: ordered by time, then commit
   * order. Strings, not events: a replay of 10,000 messages is written as one block, and
   * an object per message cost it more than reading them.
   */
  json: string[];
  /**
   * The same messages as JSON lines (each JSON followed by '\n'), when the cache read them
   * as one block: a JSON stream writes it as it is, and `json` may be split out of it only
   * when asked for.
   */
  lines?: Buffer;
  /** Their UTF-8 bytes in all (counted for the cap anyway; the subscriber's bandwidth pays them). */
  bytes: number;
  /** True when older messages were left out to respect maxBytes. */
  truncated: boolean;
  /** Ids of the replayed messages committed after `livePosition`; empty without one. */
  maybeLive: string[];
  /**
   * Messages the replay would have returned were dropped before it (see the contract):
   * the subscriber is told so by a `replay_gap` event (issue 37).
   */
  gap: boolean;
}

export interface CacheEntry {
  message: Message;
  json: string;
  /** False for a scheduled message not yet due. */
  published: boolean;
}

export interface Added {
  /** Each entry's commit sequence number, in order. */
  seqs: number[];
  /** Ids of the scheduled messages the batch replaced (see `add`). */
  replaced: string[];
}

/** A replay of nothing: since=none, the usual subscription. */
export const noReplay = (): Replay => ({ json: [], bytes: 0, truncated: false, maybeLive: [], gap: false });

/** What `trim` dropped. */
export interface Trimmed {
  count: number;
  /** The time of the newest message it dropped (Unix seconds); 0 when none. */
  newest: number;
}

/**
 * The message cache port. Contract, for every implementation:
 * - `add` commits the whole batch atomically, in order, before its promise resolves;
 *   each entry's commit sequence number (strictly increasing across calls) is returned
 *   in the same order. A message that is acknowledged is never lost. A batch holding
 *   one id twice fails and leaves none of its entries. Ids are unique because the server
 *   makes them at random (12 characters of 62, 71 bits, as ntfy's), not because `add`
 *   looks for them among those it holds: SQLite and PostgreSQL refuse a batch holding an
 *   id they hold (a unique index, at no cost), MongoDB does not look (a write per
 *   message: see mongo/message-cache.ts).
 * - In the same transaction, an entry with a sequence id (a message, or a message_delete
 *   event) first deletes the scheduled messages of its topic still waiting under that
 *   sequence id: the spec's "replaced" and "deleted (never delivered)" transitions.
 * - `release` publishes scheduled messages under a new commit sequence number, so commit
 *   order stays delivery order; a message already released or deleted is skipped, which
 *   makes each delivery happen once, even when a job runs again after a crash.
 * - `replay` never returns expired messages, and returns scheduled ones only when asked.
 * - `since` by id: the messages committed after that id in the topic; an unknown id
 *   means the whole cache, as ntfy does.
 * - `gap`: a replay since a time or an id reports the published messages of its topic it
 *   would have returned that were dropped before it — pruned, trimmed (`trim`), or lost
 *   from a cluster's log: since=<time>, one dropped at that time or later; since=<id>,
 *   one committed after that id; an id the cache does not hold, any dropped the cache
 *   still remembers (an unknown id replays everything, so a guessed id costs a lookup).
 *   A dropped message is remembered as long again as it lived in the cache (an hour at least: dropRecordUntil), by
 *   a record per topic of the newest dropped: a lookup, and one row per topic that
 *   dropped messages lately. An expired message the prune has not removed yet may be
 *   left out without a gap until it does (MongoDB's log tells it at once).
 *   since=all, latest and none never report one.
 * - Several instances may share one database (the nodes of a deployment), and all of the
 *   above holds across them: sequence numbers are unique and in commit order whichever
 *   instance committed, every call sees what any instance committed before it started,
 *   and each scheduled message is released or replaced by exactly one of them.
 */
export interface MessageCache {
  add(entries: readonly CacheEntry[]): Promise<Added>;
  /**
   * The ordered log `topic`'s messages commit to, in a store of several (`database-shards`):
   * commits to different logs may be in flight at once (see Publisher). Absent: one log.
   */
  logOf?(topic: string): number;
  release(ids: readonly string[]): Promise<Outbound[]>;
  replay(query: ReplayQuery): Promise<Replay>;
  /** Deletes expired messages; returns how many. */
  prune(nowSeconds: number): Promise<number>;
  /**
   * Drops the oldest published messages of `topic` beyond its newest `keep`, ordered as a
   * replay orders them (time, then commit order), as per-topic retention's `max-messages`
   * asks (issue 37); scheduled messages still waiting neither count nor go. Atomic; a
   * replay afterwards no longer returns what it dropped.
   */
  trim(topic: string, keep: number): Promise<Trimmed>;
  /** Removes the `attachment` of the messages with these ids (their files expired). */
  dropAttachments(ids: readonly string[]): Promise<void>;
  /**
   * Topics that hold at least one message. This and `count` may miss, for a moment, what
   * another instance on the same database committed (MongoDB: it writes its counts within
   * 250 ms); this instance's own commits are always there.
   */
  topics(): Promise<Set<string>>;
  /** Messages held, scheduled ones included (ntfy's ntfy_messages_cached_total). */
  count(): Promise<number>;
  /** Scheduled messages not yet due (the live dashboard's "scheduled waiting"). */
  waiting(): Promise<number>;
  /** Bytes the cache's storage holds: the database's used pages (SQLite), the log's data (MongoDB). */
  bytes(): Promise<number>;
  /** The persisted total of messages ever published (ntfy's /v1/stats `messages`). */
  loadStats(): Promise<number>;
  /**
   * Adds `messages` to that total in one atomic step and answers the new total: each node
   * adds what it published since it last did, so nodes sharing the cache never overwrite
   * each other's counts.
   */
  addStats(messages: number): Promise<number>;
  /**
   * Adds messages another server cached (`tocsin import ntfy`) as they are: each keeps its
   * id, times and JSON and takes the next commit sequence number, in the order given, so
   * replays and `since=<id>` keep that server's order, before anything committed later.
   * An id the cache already holds is skipped, not an error, so an import run again or
   * after an interrupt adds only what is missing. The batch commits atomically, or (on
   * MongoDB, in runs of few topics: see mongo/message-cache.ts) in consecutive atomic
   * parts, in order. Scheduled entries wait as `add`'s do; their jobs are the caller's.
   * Answers how many entries were added.
   */
  import(entries: readonly CacheEntry[]): Promise<number>;
  /**
   * Sets the total of messages the imported server had published; `loadStats` counts it
   * beside what `addStats` added. Setting, not adding: an import run twice counts once.
   */
  setImportedStats(messages: number): Promise<void>;
}

/**
 * How long a store keeps a dropped message's record (the replay gap's lookup) at least,
 * in seconds: as long again as the message lived, and never less than an hour, so that a
 * client off for a while after a short-lived message was dropped is still told.
 */
export const dropRecordMinSeconds = 3600;

/** Until when (seconds) the record of a message of `time` that expired at `expires` is kept. */
export const dropRecordUntil = (time: number, expires: number): number => expires + Math.max(expires - time, dropRecordMinSeconds);
