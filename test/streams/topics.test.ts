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

  it('a subscription to a disallowed name is 40009 (as ntfy\'s topicsFromPath); the limit stays 42904', () => {
    const r = new TopicRegistry(1, new Set(['v1']));
    assert.equal(code(() => r.admitSubscription(['ok', 'v1'])), 40009);
    assert.equal(code(() => r.admitSubscription(['a', 'b'])), 42904);
    assert.equal(code(() => r.admitSubscription(['a'])), undefined);
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
