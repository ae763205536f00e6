import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SubscriptionTally } from '../../src/streams/subscription-tally.js';

describe('subscription tally', () => {
  it('starts with every format at 0 and no topic', () => {
    const tally = new SubscriptionTally();
    assert.deepEqual(tally.byFormat(), { json: 0, sse: 0, raw: 0, ws: 0 });
    assert.equal(tally.subscribersOf('a'), 0);
  });

  it('counts subscriptions by format and by each of their topics, and forgets them as they close', () => {
    // given
    const tally = new SubscriptionTally();
    tally.opened('ws', ['a', 'b']);
    tally.opened('ws', ['a']);
    tally.opened('sse', ['b']);
    assert.deepEqual(tally.byFormat(), { json: 0, sse: 1, raw: 0, ws: 2 });
    assert.deepEqual([tally.subscribersOf('a'), tally.subscribersOf('b')], [2, 2]);

    // when
    tally.closed('ws', ['a', 'b']);
    tally.closed('sse', ['b']);

    // then
    assert.deepEqual(tally.byFormat(), { json: 0, sse: 0, raw: 0, ws: 1 });
    assert.deepEqual([tally.subscribersOf('a'), tally.subscribersOf('b')], [1, 0]);
  });
});
