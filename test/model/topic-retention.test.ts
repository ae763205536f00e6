import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetentionRuleError, TopicRetention } from '../../src/model/topic-retention.js';

const hour = 3_600_000;

describe('topic retention — which entry decides', () => {
  const retention = new TopicRetention([
    { topic: 'a*', 'cache-duration': '1h' },
    { topic: 'alerts*', 'cache-duration': '720h', 'max-messages': 10_000 },
    { topic: 'alerts', 'max-messages': 5 },
    { topic: 'ale*', 'max-messages': 7 },
    { topic: 'alex', 'max-messages': 8 },
    { topic: '*', 'max-messages': 100 },
  ], 12 * hour);

  it('the longest matching pattern wins, as access entries do; an exact topic beats a pattern of its length', () => {
    assert.deepEqual(retention.of('alerts-db'), { cacheDurationMs: 720 * hour, maxMessages: 10_000 });
    assert.deepEqual(retention.of('alerts'), { cacheDurationMs: 720 * hour, maxMessages: 10_000 }, 'alerts* is longer than alerts');
    assert.deepEqual(retention.of('alex'), { cacheDurationMs: 12 * hour, maxMessages: 8 }, 'an entry without cache-duration keeps cache-duration\'s');
    assert.equal(retention.of('alep').maxMessages, 7);
    assert.deepEqual(retention.of('app'), { cacheDurationMs: hour, maxMessages: 0 });
    assert.deepEqual(retention.of('zebra'), { cacheDurationMs: 12 * hour, maxMessages: 100 });
    assert.equal(retention.limitsCount, true);
  });

  it('patterns match case-sensitively and * spans any run of characters', () => {
    assert.equal(new TopicRetention([{ topic: 'x*y', 'max-messages': 1 }], 0).of('x-long-y').maxMessages, 1);
    assert.equal(new TopicRetention([{ topic: 'x*y', 'max-messages': 1 }], 0).of('X-y').maxMessages, 0);
  });

  it('no entries: every topic has cache-duration and no limit', () => {
    const none = new TopicRetention([], 5 * hour);
    assert.deepEqual(none.of('t'), { cacheDurationMs: 5 * hour, maxMessages: 0 });
    assert.equal(none.limitsCount, false);
  });
});

describe('topic retention — expiry', () => {
  const retention = new TopicRetention([{ topic: 'short', 'cache-duration': '1h' }, { topic: 'none', 'cache-duration': 0 }], 12 * hour);

  it('the topic\'s cache duration, or a shorter TTL, in whole seconds after the time', () => {
    assert.equal(retention.expiresAt(1000, 'other'), 1000 + 12 * 3600);
    assert.equal(retention.expiresAt(1000, 'short'), 1000 + 3600);
    assert.equal(retention.expiresAt(1000, 'short', 90_500), 1000 + 90);
    assert.equal(retention.expiresAt(1000, 'short', 2 * hour), 1000 + 3600, 'never past the topic\'s retention');
  });

  it("a publisher's tier expiry (ntfy's) stands in for cache-duration where no entry sets a duration", () => {
    const tiered = new TopicRetention([{ topic: 'short', 'cache-duration': '1h' }, { topic: 'capped', 'max-messages': 5 }, { topic: 'none', 'cache-duration': 0 }], 12 * hour);
    assert.equal(tiered.expiresAt(1000, 'other', Infinity, 24 * hour), 1000 + 86_400);
    assert.equal(tiered.expiresAt(1000, 'capped', Infinity, 24 * hour), 1000 + 86_400, 'an entry with only max-messages');
    assert.equal(tiered.expiresAt(1000, 'short', Infinity, 24 * hour), 1000 + 3600, "an entry's duration decides its topic");
    assert.equal(tiered.expiresAt(1000, 'other', 60_000, 24 * hour), 1000 + 60, 'a shorter TTL still wins');
    assert.equal(tiered.expiresAt(1000, 'none', Infinity, 24 * hour), undefined);
  });

  it('a topic with cache-duration 0 is not cached, TTL or not', () => {
    assert.equal(retention.expiresAt(1000, 'none'), undefined);
    assert.equal(retention.expiresAt(1000, 'none', hour), undefined);
  });
});

describe('topic retention — bad entries', () => {
  const refused: [unknown, RegExp][] = [
    ['alerts*', /entry 1: must be a mapping/],
    [{ topic: 'bad/topic', 'max-messages': 1 }, /entry 1: topic must be a topic or a pattern/],
    [{ topic: '', 'max-messages': 1 }, /topic must be/],
    [{ 'max-messages': 1 }, /topic must be/],
    [{ topic: 'a' }, /entry 1 \(a\): sets neither cache-duration nor max-messages/],
    [{ topic: 'a', 'cache-duration': 'forever' }, /cache-duration must be a duration like 12h or 30d, not "forever"/],
    [{ topic: 'a', 'cache-duration': '-1h' }, /cache-duration must be a duration/],
    [{ topic: 'a', 'cache-duration': 3600 }, /cache-duration must be a duration/],
    [{ topic: 'a', 'max-messages': -1 }, /max-messages must be a whole number of at least 0, not -1/],
    [{ topic: 'a', 'max-messages': 1.5 }, /max-messages must be a whole number/],
    [{ topic: 'a', 'max-messages': '10' }, /max-messages must be a whole number/],
    [{ topic: 'a', 'max-messages': 1, 'max-message': 2 }, /unknown key "max-message"/],
  ];
  for (const [entry, error] of refused) {
    it(`refuses ${JSON.stringify(entry)}`, () => {
      assert.throws(() => new TopicRetention([entry], hour), (err: Error) => err instanceof RetentionRuleError && error.test(err.message));
    });
  }

  it('names the entry by its place', () => {
    assert.throws(() => new TopicRetention([{ topic: 'ok', 'max-messages': 1 }, { topic: 'b', 'max-messages': -2 }], hour), /entry 2 \(b\)/);
  });
});
