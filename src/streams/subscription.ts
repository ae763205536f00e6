import { EMPTY, merge, type Observable } from 'rxjs';
import { controlEvent, messageJson } from '../model/message.js';
import { Outbound } from '../model/outbound.js';
import { Replayed } from '../model/replayed.js';
import type { LiveFeed } from '../store/live-feed.js';
import type { MessageCache, Replay, Since } from '../store/message-cache.js';
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
  /** The replayed messages that pass the filter, oldest first; they follow the open event. */
  replay: Replayed;
  /** After the replay: what arrived since attaching, then live messages, without those the replay carried; empty when polling. */
  live$: Observable<Outbound>;
  /** Lets go of the live topics when `live$` will never be subscribed (the client left). */
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
  const position = live ? { livePosition: deps.feed.position } : {};
  try {
    const replays = await Promise.all(
      req.topics.map((topic) => deps.cache.replay({ topic, since: req.since, scheduled: req.scheduled, maxBytes: deps.replayLimit, ...position })),
    );
    const merged = mergeByTime(replays);
    const replay = isEmptyFilter(req.filter) ? merged : Replayed.ofEvents(merged.events.filter((e) => passes(req.filter, e)));
    const truncated = replays.some((r) => r.truncated);
    const replayBytes = replay.bytes;
    if (!live) return { truncated, replayBytes, replay, live$: EMPTY, cancel: () => undefined };
    const maybeLive = new Set(replays.flatMap((r) => r.maybeLive));
    const live$ = live.observable.pipe(skipReplayed(maybeLive), matchFilter(req.filter));
    return { truncated, replayBytes, replay, live$, cancel: live.release };
  } catch (err) {
    live?.release();
    throw err;
  }
}

/** The spec's replay order across topics: by time; each topic keeps its own order. */
function mergeByTime(replays: Replay[]): Replayed {
  const [only] = replays;
  if (only && replays.length === 1) return Replayed.of(only);
  const events = replays.flatMap((r) => r.json.map((json) => Outbound.stored(json)));
  return Replayed.ofEvents(events.sort((a, b) => a.head.time - b.head.time));
}
