import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBuckets } from '../../src/model/token-buckets.js';

describe('token buckets', () => {
  it('allow the burst, then one per interval, per key', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, replenishMs: 1000 }, 100, () => now);
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

  it('hold at most maxKeys keys by dropping buckets that filled up again', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 1, replenishMs: 1000 }, 10, () => now);
    for (let i = 0; i < 10; i++) buckets.take(`10.0.0.${i}`);
    assert.equal(buckets.size, 10);
    now = 1000;
    buckets.take('10.0.1.1');
    assert.equal(buckets.size, 1, 'the ten full buckets were dropped');
    assert.equal(buckets.take('10.0.1.1'), false, 'the kept bucket still counts');
    for (let i = 0; i < 20; i++) buckets.take(`10.0.2.${i}`);
    assert.equal(buckets.size, 10, 'with no bucket full, the oldest go');
  });
});
