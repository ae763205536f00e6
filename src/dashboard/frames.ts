import { asyncScheduler, defer, finalize, interval, map, share, type Observable, type SchedulerLike } from 'rxjs';
import { errors } from '../model/errors.js';
import type { LiveFeed } from '../store/live-feed.js';
import type { MessageCache } from '../store/message-cache.js';
import type { SubscriptionTally } from '../streams/subscription-tally.js';
import type { Frame, LimitHits } from './frame.js';
import { StoreFigures } from './store-figures.js';
import { TopicActivity } from './topic-activity.js';

/** Where a frame's figures come from: the server's own state and counters, nothing counted twice. */
export interface FrameSources {
  /** Followed while watched: messages and deliveries per topic. */
  feed: Pick<LiveFeed, 'batches$'>;
  subscriptions: Pick<SubscriptionTally, 'byFormat' | 'subscribersOf'>;
  cache: Pick<MessageCache, 'count' | 'bytes' | 'waiting'>;
  visitors(): number;
  topics(): number;
  /** Refusals by a limit so far, by ntfy code (the metrics' request counts). */
  limitHits(): Map<number, number>;
  slowSubscribersDropped(): number;
  /** A store read failed; the frames keep the figures of the last that did not. */
  onError(err: unknown): void;
}

export interface FrameOptions {
  periodMs?: number;
  /** How many busiest topics a frame lists. */
  top?: number;
  scheduler?: SchedulerLike;
}

const errorTexts: ReadonlyMap<number, string> = new Map(Object.values(errors).map((e) => [e.code, e.error]));

/**
 * The live dashboard's frames, one per period, shared by every watcher. The first
 * watcher starts the sampling — following the live feed, reading the store — and the last
 * one to leave stops it (`share` resets at zero watchers), so an unwatched dashboard costs
 * nothing. The first frame comes one period after the first watcher arrives.
 */
export function liveFrames(src: FrameSources, { periodMs = 1000, top = 10, scheduler = asyncScheduler }: FrameOptions = {}): Observable<Frame> {
  const seconds = periodMs / 1000;
  return defer(() => {
    const activity = new TopicActivity((topic) => src.subscriptions.subscribersOf(topic));
    const following = src.feed.batches$.subscribe((batch) => activity.count(batch.events));
    const store = new StoreFigures(src.cache, src.onError);
    void store.refresh();
    return interval(periodMs, scheduler).pipe(
      map((): Frame => {
        const { messages, deliveries, busiest } = activity.take(top);
        const { rows, bytes, scheduled } = store.latest;
        void store.refresh();
        return {
          time: Math.floor(scheduler.now() / 1000),
          interval: seconds,
          messages_per_second: messages / seconds,
          deliveries_per_second: deliveries / seconds,
          subscriptions: src.subscriptions.byFormat(),
          topics: src.topics(),
          busiest_topics: busiest,
          visitors: src.visitors(),
          cache: { rows, bytes },
          scheduled,
          limits_hit: limitsHit(src.limitHits()),
          slow_subscribers_dropped: src.slowSubscribersDropped(),
        };
      }),
      finalize(() => following.unsubscribe()),
    );
  }).pipe(share());
}

function limitsHit(hits: Map<number, number>): LimitHits[] {
  return [...hits].sort(([a], [b]) => a - b).map(([code, count]) => ({ code, error: errorTexts.get(code) ?? '', count }));
}
