import type { SubscribeFormat } from '../streams/subscription-tally.js';

/** One topic among the busiest of the last interval. */
export interface BusyTopic {
  topic: string;
  /** Messages (and their delete/clear events) that went live on it in the interval. */
  messages: number;
  /** Handed to this node's subscribers of it in the interval. */
  deliveries: number;
}

/** One limit refused requests: its ntfy code, and how many since this node started. */
export interface LimitHits {
  code: number;
  /** The error's text, e.g. "limit reached: too many requests". */
  error: string;
  count: number;
}

/**
 * One sample of the live dashboard feed (GET /v1/dashboard/ws), sent once a second as a
 * JSON text frame with these snake_case keys. Figures are this node's except where the
 * comment says "shared": several nodes on one MongoDB each sample their own.
 */
export interface Frame {
  /** Unix seconds when the sample was taken. */
  time: number;
  /** Seconds the rates below were counted over (1). */
  interval: number;
  /** Shared: messages gone live per second, on every node (the live feed brings all commits). */
  messages_per_second: number;
  /** Messages handed to this node's subscribers per second (one message to 3 subscribers: 3). */
  deliveries_per_second: number;
  /** Open subscriptions by wire format. */
  subscriptions: Record<SubscribeFormat, number>;
  /** Topics known: subscribed to, or used within cache-duration (ntfy_topics_total). */
  topics: number;
  /** The topics with the most messages in the interval, busiest first (at most 10). */
  busiest_topics: BusyTopic[];
  /** Visitors held (ntfy_visitors_total). */
  visitors: number;
  /** Shared: the message cache's rows (scheduled included) and bytes; read at most once a second, so up to a second old. */
  cache: { rows: number; bytes: number };
  /** Shared: scheduled messages waiting to be due. */
  scheduled: number;
  /** Requests refused by a limit (413, 429, and the 400s of template time and title and tag sizes) since start, by ntfy code (tocsin_limit_hits_total). */
  limits_hit: LimitHits[];
  /** Subscribers disconnected for not reading, since start (tocsin_slow_subscribers_dropped_total). */
  slow_subscribers_dropped: number;
}

/**
 * The frame's JSON, encoded once for every watcher. Without access control anyone may
 * watch, and a topic's name is all it takes to read it: the busiest topics then go out
 * without their names, as `"topic": ""`.
 */
export function encodeFrame(frame: Frame, topicNames: boolean): string {
  if (topicNames) return JSON.stringify(frame);
  return JSON.stringify({ ...frame, busiest_topics: frame.busiest_topics.map((t) => ({ ...t, topic: '' })) });
}
