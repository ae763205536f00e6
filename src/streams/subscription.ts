import { EMPTY, type Observable } from 'rxjs';
import { errors } from '../model/errors.js';
import { controlEvent, messageJson, replayGapEvent } from '../model/message.js';
import { Outbound } from '../model/outbound.js';
import { Replayed } from '../model/replayed.js';
import type { FeedPosition, LiveFeed } from '../store/live-feed.js';
import type { MessageCache, Replay, Since } from '../store/message-cache.js';
import { hold } from '../operators/hold.js';
import { mergeUntilAnyEnds } from '../operators/merge-until-any-ends.js';
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
  /** A replay_gap event per topic whose replay misses dropped messages; they follow the open event, before the replay. */
  gaps: readonly Outbound[];
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

/** The bandwidth a replay is paid from (its visitor's: Visitor.reserve and settle). */
export interface ReplayAllowance {
  /** Takes up to `bytes` (what is left, when less) before they are loaded; answers how many it took. */
  reserve(bytes: number): number;
  /** Of `reserved` bytes taken, `spent` are sent: the rest is given back. */
  settle(reserved: number, spent: number): void;
}

export function controlOutbound(event: 'open' | 'keepalive', topics: readonly string[]): Outbound {
  const message = controlEvent(event, topics.join(','));
  return Outbound.of(message, messageJson(message));
}

/**
 * Opens a subscription with gapless replay (DESIGN.md): attach to the live topics first
 * and hold what arrives, take the feed's position, read the cache, then emit the replay
 * followed by the held and live messages, without the ones the replay already carried
 * (only those above the position can be among them). The replay is paid from `allowance`
 * as it is read (see loadReplays); what the filter leaves out is given back.
 */
export async function openSubscription(deps: SubscriptionDeps, req: SubscriptionRequest, allowance: ReplayAllowance): Promise<Opened> {
  const live = req.poll ? undefined : hold(mergeUntilAnyEnds(req.topics.map((t) => deps.hub.topic$(t))));
  try {
    const { replays, loaded } = await loadReplays(deps, req, allowance, live ? deps.feed.position : undefined);
    const merged = mergeByTime(replays);
    const replay = isEmptyFilter(req.filter) ? merged : Replayed.ofEvents(merged.events.filter((e) => passes(req.filter, e)));
    allowance.settle(loaded, replay.bytes);
    const truncated = replays.some((r) => r.truncated);
    const gaps = gapEvents(req, replays);
    if (!live) return { truncated, gaps, replay, live$: EMPTY, cancel: () => undefined };
    const maybeLive = new Set(replays.flatMap((r) => r.maybeLive));
    const live$ = live.observable.pipe(skipReplayed(maybeLive), matchFilter(req.filter));
    return { truncated, gaps, replay, live$, cancel: live.release };
  } catch (err) {
    live?.release();
    throw err;
  }
}

/**
 * Each topic's replay, read one topic at a time with what is left of the allowance
 * reserved before it is read, so that a request never loads more than its visitor may be
 * sent, and several requests of one visitor cannot together either (issue 33: one GET
 * naming a topic 1,500 times loaded 1,500 replays of up to 10 MB before the bandwidth was
 * checked). A replay cut by the allowance rather than by the per-topic cap could not have
 * been paid: 42905, everything given back. Answers the replays and the bytes they hold,
 * which stay reserved.
 */
async function loadReplays(deps: SubscriptionDeps, req: SubscriptionRequest, allowance: ReplayAllowance, livePosition: FeedPosition | undefined): Promise<{ replays: Replay[]; loaded: number }> {
  const replays: Replay[] = [];
  if (req.since.kind === 'none') return { replays, loaded: 0 };
  const position = livePosition === undefined ? {} : { livePosition };
  let loaded = 0;
  try {
    for (const topic of req.topics) {
      const granted = allowance.reserve(deps.replayLimit);
      loaded += granted;
      const replay = await deps.cache.replay({ topic, since: req.since, scheduled: req.scheduled, maxBytes: granted, ...position });
      allowance.settle(granted - replay.bytes, 0);
      loaded -= granted - replay.bytes;
      if (replay.truncated && granted < deps.replayLimit) throw errors.bandwidthLimit;
      replays.push(replay);
    }
  } catch (err) {
    allowance.settle(loaded, 0);
    throw err;
  }
  return { replays, loaded };
}

/** The replay_gap events of the topics whose replay (`replays`, in the order of `req.topics`) reports a gap. */
function gapEvents({ topics, since }: SubscriptionRequest, replays: readonly Replay[]): Outbound[] {
  if (since.kind !== 'id' && since.kind !== 'time') return [];
  const marker = since.kind === 'id' ? since.id : String(since.time);
  return topics.filter((_, i) => replays[i]?.gap).map((topic) => {
    const message = replayGapEvent(topic, marker);
    return Outbound.of(message, messageJson(message));
  });
}

/** The spec's replay order across topics: by time; each topic keeps its own order. */
function mergeByTime(replays: Replay[]): Replayed {
  const [only] = replays;
  if (only && replays.length === 1) return Replayed.of(only);
  const events = replays.flatMap((r) => r.json.map((json) => Outbound.stored(json)));
  return Replayed.ofEvents(events.sort((a, b) => a.head.time - b.head.time));
}
