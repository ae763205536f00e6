import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/model/errors.js';
import { TopicRegistry } from '../../src/streams/topics.js';

const code = (fn: () => void): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof HttpError ? err.code : -1;
  }
};

describe('topic registry', () => {
  it('admits new topics up to the limit, all or none, and known ones always', () => {
    const r = new TopicRegistry(3, new Set());
    r.admit(['a', 'b'], 'publish');
    assert.equal(code(() => r.admit(['c', 'd'], 'publish')), 42904);
    assert.equal(r.size, 2);
    r.admit(['a', 'c'], 'publish');
    assert.equal(r.size, 3);
    assert.equal(code(() => r.admit(['a', 'b', 'c'], 'publish')), undefined);
  });

  it('rejects disallowed names with 40010', () => {
    const r = new TopicRegistry(10, new Set(['v1']));
    assert.equal(code(() => r.admit(['ok', 'v1'], 'publish')), 40010);
    assert.equal(r.size, 0);
  });

  it('prunes topics unused since the cutoff unless they are live', () => {
    const r = new TopicRegistry(10, new Set());
    r.admit(['idle', 'live'], 'publish');
    r.prune((t) => t === 'live', Date.now() + 1);
    assert.equal(r.size, 1);
    assert.equal(code(() => r.admit(['live'], 'publish')), undefined);
    r.seed(['from-cache']);
    r.prune(() => false, Date.now() - 60_000);
    assert.equal(r.size, 2);
  });
});

describe('topic registry — subscriptions', () => {
  it('a topic only subscribed to leaves when its last subscription ends, and frees its place under the limit', () => {
    const r = new TopicRegistry(2, new Set());
    r.admit(['a', 'b'], 'subscribe');
    r.admit(['a'], 'subscribe');
    assert.equal(code(() => r.admit(['c'], 'publish')), 42904);
    r.leave(['a', 'b']);
    assert.equal(r.size, 1, 'b left; a is still held by the second subscription');
    r.leave(['a']);
    assert.equal(r.size, 0);
    assert.equal(code(() => r.admit(['c', 'd'], 'publish')), undefined);
  });

  it('a topic published to stays after its subscriptions end, until pruned', () => {
    let now = 0;
    const r = new TopicRegistry(10, new Set(), () => now);
    r.admit(['news'], 'subscribe');
    r.admit(['news'], 'publish');
    r.seed(['cached']);
    r.admit(['cached'], 'subscribe');
    r.leave(['news', 'cached']);
    assert.equal(r.size, 2);
    now = 1_000;
    r.prune(() => false, 500);
    assert.equal(r.size, 0);
  });

  it('a topic held by a subscription is never pruned, however old', () => {
    let now = 0;
    const r = new TopicRegistry(10, new Set(), () => now);
    r.admit(['held'], 'publish');
    r.admit(['held'], 'subscribe');
    now = 1_000;
    r.prune(() => false, 500);
    assert.equal(r.size, 1);
    r.leave(['held']);
    assert.equal(r.size, 1, 'published to: kept for the cache duration from its last use');
  });

  it('leaving costs the topics left, not the table: 100,000 fresh topics come and go', () => {
    const r = new TopicRegistry(1_000, new Set());
    for (let i = 0; i < 100; i++) {
      const topics = Array.from({ length: 1_000 }, (_, j) => `t${i}-${j}`);
      r.admit(topics, 'subscribe');
      r.leave(topics);
    }
    assert.deepEqual([r.size, r.work], [0, 0], 'nothing left, nothing walked');
  });
});

describe('topic registry — bounded', () => {
  it('holds no more than global-topic-limit topics under a flood of new names', () => {
    const r = new TopicRegistry(1_000, new Set());
    let refused = 0;
    for (let i = 0; i < 5_000; i++) refused += code(() => r.admit([`flood${i}`], 'publish')) === 42904 ? 1 : 0;
    assert.deepEqual([r.size, refused], [1_000, 4_000]);
  });

  it('pruning visits only the topics not used within the cache duration, not the whole table', () => {
    let now = 0;
    const r = new TopicRegistry(100_000, new Set(), () => now);
    for (let i = 0; i < 10; i++) r.admit([`old${i}`], 'publish');
    r.admit(['busy', 'live'], 'publish');
    now = 1_000_000;
    for (let i = 0; i < 50_000; i++) r.admit([`new${i}`], 'publish');
    r.admit(['busy'], 'publish');
    const before = r.work;
    r.prune((t) => t === 'live', 500_000);
    assert.deepEqual([r.size, r.work - before], [50_002, 12], 'ten dropped, busy and live moved, no recent one visited');
    r.prune((t) => t === 'live', 500_000);
    assert.equal(r.work - before, 12, 'a second prune finds nothing old');
  });
});
