import { concat, from, merge, of, type Observable } from 'rxjs';
import { controlEvent, messageJson } from '../model/message.js';
import { Outbound } from '../model/outbound.js';
import type { LiveFeed } from '../store/live-feed.js';
import type { MessageCache, Since } from '../store/message-cache.js';
import { hold } from '../operators/hold.js';
import { isEmptyFilter, matchFilter, passes, type MessageFilter } from '../operators/match-filter.js';
import { skipReplayed } from '../operators/skip-replayed.js';
import type { TopicHub } from './hub.js';

export interface SubscriptionRequest {
  topics: readonly string[];
  since: Since;
  scheduled: boolean;
  filter: MessageFilter;
  /** Replay and complete, with no open event and no live part. */
  poll: boolean;
}

export interface Opened {
  /** Some topic's replay was capped (`X-Messages-Truncated: 1`). */
  truncated: boolean;
  /** The JSON bytes of the replay it will send (the visitor's bandwidth pays for them). */
  replayBytes: number;
  /** open, the replay, then live messages; completes after the replay when polling. */
  events$: Observable<Outbound>;
  /** Lets go of the live topics when `events$` will never be subscribed (the client left). */
  cancel(): void;
}

export interface SubscriptionDeps {
  hub: TopicHub;
  cache: MessageCache;
  /** The feed the hub follows: its position tells which replayed messages may still arrive live. */
  feed: Pick<LiveFeed, 'position'>;
  /** Per-topic replay cap in bytes (the spec's 10 MB). */
  replayLimit: number;
}

export function controlOutbound(event: 'open' | 'keepalive', topics: readonly string[]): Outbound {
  const message = controlEvent(event, topics.join(','));
  return Outbound.of(message, messageJson(message));
}

/**
 * Opens a subscription with gapless replay (DESIGN.md): attach to the live topics first
 * and hold what arrives, take the feed's position, read the cache, then emit the replay
 * followed by the held and live messages, without the ones the replay already carried
 * (only those above the position can be among them).
 */
export async function openSubscription(deps: SubscriptionDeps, req: SubscriptionRequest): Promise<Opened> {
  const live = req.poll ? undefined : hold(merge(...req.topics.map((t) => deps.hub.topic$(t))));
  const handed = deps.feed.position;
  try {
    const replays = await Promise.all(
      req.topics.map((topic) => deps.cache.replay({ topic, since: req.since, scheduled: req.scheduled, maxBytes: deps.replayLimit })),
    );
    const merged = mergeByTime(replays.map((r) => r.messages));
    const replayed = isEmptyFilter(req.filter) ? merged : merged.filter((e) => passes(req.filter, e));
    const truncated = replays.some((r) => r.truncated);
    const replayBytes = replayed.reduce((sum, e) => sum + Buffer.byteLength(e.json), 0);
    const replay$ = from(replayed);
    if (!live) return { truncated, replayBytes, events$: replay$, cancel: () => undefined };
    const maybeLive = new Set(merged.filter((e) => (e.seq ?? 0) > handed).map((e) => e.head.id));
    const live$ = live.observable.pipe(skipReplayed(maybeLive), matchFilter(req.filter));
    return { truncated, replayBytes, events$: concat(of(controlOutbound('open', req.topics)), replay$, live$), cancel: live.release };
  } catch (err) {
    live?.release();
    throw err;
  }
}

/** The spec's replay order across topics: by time; each topic keeps its own order. */
function mergeByTime(lists: Outbound[][]): Outbound[] {
  if (lists.length === 1) return lists[0] ?? [];
  return lists.flat().sort((a, b) => a.head.time - b.head.time);
}
