import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';
import { messageJson, type Message } from '../../src/model/message.js';
import { Outbound } from '../../src/model/outbound.js';
import { hold, type Held } from '../../src/operators/hold.js';
import type { FeedBatch } from '../../src/store/live-feed.js';
import { TopicHub } from '../../src/streams/hub.js';

function event(topic: string, id: string): Outbound {
  const message: Message = { id, time: 1, event: 'message', topic, message: id };
  return Outbound.of(message, messageJson(message));
}

/** A hub following a feed, with live topics a and b recorded, and c held as a subscription reading the cache holds it. */
function liveTopics(): { hub: TopicHub; feed: Subject<FeedBatch>; seen: string[]; ended: string[]; held: Held<Outbound> } {
  const hub = new TopicHub();
  const feed = new Subject<FeedBatch>();
  hub.follow(feed);
  const seen: string[] = [];
  const ended: string[] = [];
  for (const topic of ['a', 'b']) hub.topic$(topic).subscribe({ next: (e) => seen.push(e.head.id), complete: () => ended.push(topic) });
  return { hub, feed, seen, ended, held: hold(hub.topic$('c')) };
}

describe('hub — interrupt', () => {
  it('completes every live topic stream, held ones too; later subscribers get fresh streams', () => {
    // given: two live topics, and a subscription holding a third while it reads the cache
    const { hub, feed, seen, ended, held } = liveTopics();
    feed.next({ events: [event('a', 'a1'), event('b', 'b1')], committedAt: performance.now() });

    // when
    hub.interrupt();

    // then: both live streams completed and the topics are no longer live
    assert.deepEqual([seen, ended, hub.liveTopics], [['a1', 'b1'], ['a', 'b'], 0]);
    let heldEnded = false;
    held.observable.subscribe({ complete: () => (heldEnded = true) });
    assert.equal(heldEnded, true, 'the held subscription learns of it when it goes live');
    // and: a new subscriber follows the feed as before
    const after: string[] = [];
    hub.topic$('a').subscribe((e) => after.push(e.head.id));
    feed.next({ events: [event('a', 'a2')], committedAt: performance.now() });
    assert.deepEqual([after, seen.length], [['a2'], 2]);
  });

  it('with `covers`, completes only the streams of the topics it covers (a lost range of one log)', () => {
    // given: live topics a, b and c, the last one held while it reads the cache
    const { hub, feed, seen, ended, held } = liveTopics();

    // when: a range of the log holding b and c is lost
    hub.interrupt((topic) => topic !== 'a');

    // then: b and c ended, a goes on
    let heldEnded = false;
    held.observable.subscribe({ complete: () => (heldEnded = true) });
    assert.deepEqual([ended, heldEnded, hub.isLive('a'), hub.liveTopics], [['b'], true, true, 1]);
    feed.next({ events: [event('a', 'a1'), event('b', 'b1')], committedAt: performance.now() });
    assert.deepEqual(seen, ['a1']);
  });

  it('with no live topic does nothing', () => {
    const hub = new TopicHub();
    hub.interrupt();
    assert.equal(hub.liveTopics, 0);
  });
});
