import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBuckets } from '../../src/model/token-buckets.js';

describe('token buckets', () => {
  it('allow the burst, then one per interval, per key', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, replenishMs: 1000 }, { maxKeys: 100, now: () => now });
    assert.deepEqual([1, 2, 3, 4].map(() => buckets.take('a')), [true, true, true, false]);
    assert.equal(buckets.allows('a'), false);
    assert.equal(buckets.take('b'), true, 'another key has its own bucket');
    now = 999;
    assert.equal(buckets.take('a'), false);
    now = 1000;
    assert.equal(buckets.allows('a'), true, 'one token back after one interval');
    assert.equal(buckets.take('a'), true);
    assert.equal(buckets.take('a'), false);
    now = 100_000;
    assert.deepEqual([1, 2, 3, 4].map(() => buckets.take('a')), [true, true, true, false], 'refills only up to the burst');
  });

  it('count addresses under the key they map to (an IPv6 /64 is one key)', () => {
    const buckets = new TokenBuckets({ burst: 2, replenishMs: 1000 }, { now: () => 0, keyOf: (a) => a.split('::')[0] as string });
    assert.deepEqual([buckets.take('2001:db8::1'), buckets.take('2001:db8::2'), buckets.take('2001:db8::3')], [true, true, false]);
    assert.equal(buckets.size, 1);
  });

  it('hold at most maxKeys keys, the least recently spending dropped first; a key refused all along is kept', () => {
    const buckets = new TokenBuckets({ burst: 1, replenishMs: 1000 }, { maxKeys: 16, now: () => 0 });
    buckets.take('steady');
    for (let i = 0; i < 100; i++) {
      buckets.take(`10.0.0.${i}`);
      assert.equal(buckets.take('steady'), false);
    }
    assert.ok(buckets.size <= 16, `held ${buckets.size}`);
    assert.equal(buckets.allows('steady'), false, 'a key spending all along keeps its empty bucket');
    assert.equal(buckets.allows('10.0.0.0'), true, 'the oldest was forgiven');
  });

  it('cost per new key does not grow with the table: the same entries touched at 1,000 and 100,000 keys', () => {
    const perKey = (maxKeys: number): number => {
      const buckets = new TokenBuckets({ burst: 1, replenishMs: 60_000 }, { maxKeys, now: () => 0 });
      for (let i = 0; i < maxKeys; i++) buckets.take(`k${i}`);
      const before = buckets.work;
      for (let i = maxKeys; i < 3 * maxKeys; i++) buckets.take(`k${i}`);
      return (buckets.work - before) / (2 * maxKeys);
    };
    const [small, large] = [perKey(1_000), perKey(100_000)];
    assert.ok(small <= 1.01 && large <= 1.01, `entries touched per key: ${small} at 1,000, ${large} at 100,000`);
  });

  it('housekeeping drops buckets that filled up again, visiting only those', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 2, replenishMs: 1000 }, { now: () => now });
    for (let i = 0; i < 10; i++) buckets.take(`old${i}`);
    now = 5000;
    for (let i = 0; i < 1000; i++) buckets.take(`new${i}`);
    now = 6000;
    const before = buckets.work;
    buckets.forget();
    assert.deepEqual([buckets.size, buckets.work - before], [1000, 10]);
  });
});
