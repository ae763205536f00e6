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
    r.admit(['a', 'b']);
    assert.equal(code(() => r.admit(['c', 'd'])), 42904);
    assert.equal(r.size, 2);
    r.admit(['a', 'c']);
    assert.equal(r.size, 3);
    assert.equal(code(() => r.admit(['a', 'b', 'c'])), undefined);
  });

  it('rejects disallowed names with 40010', () => {
    const r = new TopicRegistry(10, new Set(['v1']));
    assert.equal(code(() => r.admit(['ok', 'v1'])), 40010);
    assert.equal(r.size, 0);
  });

  it('prunes topics unused since the cutoff unless they are live', () => {
    const r = new TopicRegistry(10, new Set());
    r.admit(['idle', 'live']);
    r.prune((t) => t === 'live', Date.now() + 1);
    assert.equal(r.size, 1);
    assert.equal(code(() => r.admit(['live'])), undefined);
    r.seed(['from-cache']);
    r.prune(() => false, Date.now() - 60_000);
    assert.equal(r.size, 2);
  });
});

describe('topic registry — bounded', () => {
  it('holds no more than global-topic-limit topics under a flood of new names', () => {
    const r = new TopicRegistry(1_000, new Set());
    let refused = 0;
    for (let i = 0; i < 5_000; i++) refused += code(() => r.admit([`flood${i}`])) === 42904 ? 1 : 0;
    assert.deepEqual([r.size, refused], [1_000, 4_000]);
  });

  it('pruning visits only the topics not used within the cache duration, not the whole table', () => {
    let now = 0;
    const r = new TopicRegistry(100_000, new Set(), () => now);
    for (let i = 0; i < 10; i++) r.admit([`old${i}`]);
    r.admit(['busy', 'live']);
    now = 1_000_000;
    for (let i = 0; i < 50_000; i++) r.admit([`new${i}`]);
    r.admit(['busy']);
    const before = r.work;
    r.prune((t) => t === 'live', 500_000);
    assert.deepEqual([r.size, r.work - before], [50_002, 12], 'ten dropped, busy and live moved, no recent one visited');
    r.prune((t) => t === 'live', 500_000);
    assert.equal(r.work - before, 12, 'a second prune finds nothing old');
  });
});
