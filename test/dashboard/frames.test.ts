import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { encodeFrame, type Frame } from '../../src/dashboard/frame.js';
import { liveFrames, type FrameSources } from '../../src/dashboard/frames.js';
import { messageJson } from '../../src/model/message.js';
import { Outbound } from '../../src/model/outbound.js';
import type { FeedBatch } from '../../src/store/live-feed.js';
import { SubscriptionTally } from '../../src/streams/subscription-tally.js';
import { message } from '../store/contracts/cache-messages.js';

/** Virtual time: `advance(ms)` runs what falls due within the next `ms`. */
class Clock extends VirtualTimeScheduler {
  constructor() {
    super(VirtualAction, 0);
  }

  advance(ms: number): void {
    this.maxFrames = this.frame + ms;
    this.flush();
  }
}

const batch = (...topics: string[]): FeedBatch => ({
  events: topics.map((topic) => {
    const m = message(topic);
    return Outbound.of(m, messageJson(m));
  }),
  committedAt: 0,
});

/** Fake sources around a real tally and a feed Subject; `reads` counts the store's reads. */
function sources(overrides: Partial<FrameSources> = {}) {
  const feed = new Subject<FeedBatch>();
  const subscriptions = new SubscriptionTally();
  const counts = { reads: 0, errors: [] as unknown[] };
  const src: FrameSources = {
    feed: { batches$: feed },
    subscriptions,
    cache: {
      count: async () => {
        counts.reads++;
        return 7;
      },
      bytes: async () => 4096,
      waiting: async () => 2,
    },
    visitors: () => 3,
    topics: () => 5,
    limitHits: () => new Map([[42908, 1], [42901, 4]]),
    slowSubscribersDropped: () => 6,
    onError: (err) => counts.errors.push(err),
    ...overrides,
  };
  return { feed, subscriptions, counts, src };
}

/** Lets the store reads (promises) settle. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('dashboard frames — sampling', () => {
  it('costs nothing unwatched: the feed is followed and the store read only while someone watches', async () => {
    // given
    const clock = new Clock();
    const { feed, counts, src } = sources();
    const frames$ = liveFrames(src, { scheduler: clock });
    assert.equal(feed.observed, false);

    // when: two watchers, then both leave
    const seen: Frame[][] = [[], []];
    const watchers = seen.map((list) => frames$.subscribe((f) => list.push(f)));
    assert.equal(feed.observed, true);
    await settle();
    clock.advance(1000);
    await settle();
    clock.advance(1000);
    await settle();
    watchers.forEach((w) => w.unsubscribe());
    const readsWhenLeft = counts.reads;
    clock.advance(5000);
    await settle();

    // then
    assert.equal(seen[0]?.length, 2);
    assert.equal(seen[0]?.[0], seen[1]?.[0], 'both watchers share one frame');
    assert.equal(feed.observed, false);
    assert.equal(readsWhenLeft, 3, 'one read at the start and one after each frame');
    assert.equal(counts.reads, readsWhenLeft, 'no read once nobody watches');
  });

  it('a frame holds the interval\'s rates, the busiest topics and the server\'s figures', async () => {
    // given: a has 2 subscribers (json and ws), b none
    const clock = new Clock();
    const { feed, subscriptions, src } = sources();
    subscriptions.opened('json', ['a']);
    subscriptions.opened('ws', ['a', 'c']);
    const frames: Frame[] = [];
    liveFrames(src, { scheduler: clock }).subscribe((f) => frames.push(f));
    await settle();

    // when
    feed.next(batch('b', 'a', 'a'));
    feed.next(batch('a'));
    clock.advance(1000);

    // then
    assert.deepEqual(frames, [
      {
        time: 1,
        interval: 1,
        messages_per_second: 4,
        deliveries_per_second: 6,
        subscriptions: { json: 1, sse: 0, raw: 0, ws: 1 },
        topics: 5,
        busiest_topics: [
          { topic: 'a', messages: 3, deliveries: 6 },
          { topic: 'b', messages: 1, deliveries: 0 },
        ],
        visitors: 3,
        cache: { rows: 7, bytes: 4096 },
        scheduled: 2,
        limits_hit: [
          { code: 42901, error: 'limit reached: too many requests', count: 4 },
          { code: 42908, error: 'limit reached: daily message quota reached', count: 1 },
        ],
        slow_subscribers_dropped: 6,
      },
    ]);
  });

  it('each interval starts afresh; the busiest list keeps the top N, most messages first, then by name', async () => {
    const clock = new Clock();
    const { feed, src } = sources();
    const frames: Frame[] = [];
    liveFrames(src, { scheduler: clock, top: 2 }).subscribe((f) => frames.push(f));
    feed.next(batch('z', 'y', 'x', 'x'));
    clock.advance(1000);
    clock.advance(1000);
    assert.deepEqual(frames.map((f) => f.busiest_topics.map((t) => [t.topic, t.messages])), [[['x', 2], ['y', 1]], []]);
    assert.deepEqual(frames.map((f) => f.messages_per_second), [4, 0]);
  });

  it('rates are per second over a longer period', () => {
    const clock = new Clock();
    const { feed, src } = sources();
    const frames: Frame[] = [];
    liveFrames(src, { scheduler: clock, periodMs: 2000 }).subscribe((f) => frames.push(f));
    feed.next(batch('a', 'a', 'a'));
    clock.advance(2000);
    assert.deepEqual(frames.map((f) => [f.interval, f.messages_per_second]), [[2, 1.5]]);
  });

  it('a store read that fails is reported and the frames keep the last figures read', async () => {
    const clock = new Clock();
    let fail = false;
    const { counts, src } = sources({
      cache: {
        count: async () => {
          if (fail) throw new Error('store down');
          return 9;
        },
        bytes: async () => 100,
        waiting: async () => 0,
      },
    });
    const frames: Frame[] = [];
    liveFrames(src, { scheduler: clock }).subscribe((f) => frames.push(f));
    await settle();
    fail = true;
    clock.advance(1000);
    await settle();
    clock.advance(1000);
    assert.deepEqual(frames.map((f) => f.cache.rows), [9, 9]);
    assert.deepEqual(counts.errors.map((e) => (e as Error).message), ['store down']);
  });
});

describe('dashboard frames — encoding', () => {
  const frame = { busiest_topics: [{ topic: 'secret-name', messages: 2, deliveries: 1 }] } as Frame;

  it('with access control the frame goes out whole', () => {
    assert.equal(encodeFrame(frame, true), '{"busiest_topics":[{"topic":"secret-name","messages":2,"deliveries":1}]}');
  });

  it('without access control topic names are withheld', () => {
    assert.equal(encodeFrame(frame, false), '{"busiest_topics":[{"topic":"","messages":2,"deliveries":1}]}');
  });
});
