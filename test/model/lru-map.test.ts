import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruMap } from '../../src/model/lru-map.js';

const keys = (m: LruMap<string, number>, names: string[]): string[] => names.filter((k) => m.has(k));

describe('lru map', () => {
  it('empty — a miss is undefined and costs no eviction work', () => {
    const m = new LruMap<string, number>(4);
    assert.deepEqual([m.get('a'), m.peek('a'), m.size, m.work], [undefined, undefined, 0, 0]);
  });

  it('holds up to capacity, then evicts the oldest in a batch of capacity / 8', () => {
    const m = new LruMap<string, number>(16);
    for (let i = 0; i < 16; i++) m.set(`k${i}`, i);
    assert.equal(m.size, 16);
    m.set('k16', 16);
    assert.equal(m.size, 14, '17 entries, down to 16 - 2');
    assert.equal(m.evicted, 3);
    assert.deepEqual(keys(m, ['k0', 'k1', 'k2', 'k3']), ['k3']);
    assert.equal(m.get('k16'), 16);
  });

  it('a recently used entry survives evictions; an unused one of the same age goes', () => {
    const m = new LruMap<string, number>(16);
    m.set('used', 1);
    m.set('unused', 2);
    for (let i = 0; i < 40; i++) {
      m.set(`k${i}`, i);
      m.get('used');
    }
    assert.deepEqual([m.has('used'), m.has('unused')], [true, false]);
  });

  it('peek does not mark an entry used', () => {
    const m = new LruMap<string, number>(8);
    m.set('a', 1);
    for (let i = 0; i < 20; i++) {
      m.set(`k${i}`, i);
      assert.ok(m.peek('a') === 1 || m.peek('a') === undefined);
    }
    assert.equal(m.has('a'), false);
  });

  it('moves pinned entries to the young end instead of evicting them', () => {
    const pins = new Set(['keep']);
    const m = new LruMap<string, number>(8, { pinned: (v) => v < 0 && pins.has('keep') });
    m.set('keep', -1);
    for (let i = 0; i < 100; i++) m.set(`k${i}`, i);
    assert.equal(m.get('keep'), -1);
    assert.ok(m.size <= 8);
    pins.clear();
    for (let i = 0; i < 100; i++) m.set(`j${i}`, i);
    assert.equal(m.has('keep'), false, 'once unpinned it ages out like the rest');
  });

  it('a table of pinned entries grows by batches rather than being walked on every insert', () => {
    const m = new LruMap<string, number>(8, { pinned: () => true });
    for (let i = 0; i < 8; i++) m.set(`p${i}`, i);
    const before = m.work;
    for (let i = 8; i < 8 + 10_000; i++) m.set(`p${i}`, i);
    assert.equal(m.size, 10_008);
    assert.ok((m.work - before) / 10_000 <= 10, `entries touched per insert: ${(m.work - before) / 10_000}`);
  });

  it('cost per insert does not grow with the table: the same work per new key at 1,000 and 100,000 entries', () => {
    const perInsert = (capacity: number): number => {
      const m = new LruMap<number, number>(capacity);
      for (let i = 0; i < capacity; i++) m.set(i, i);
      const before = m.work;
      for (let i = capacity; i < capacity * 3; i++) m.set(i, i);
      return (m.work - before) / (capacity * 2);
    };
    const [small, large] = [perInsert(1_000), perInsert(100_000)];
    assert.ok(small <= 1.01 && large <= 1.01, `entries touched per insert: ${small} at 1,000, ${large} at 100,000`);
  });

  it('expire drops stale entries from the old end, moves ones still in use, and stops at the first young one', () => {
    let now = 0;
    const m = new LruMap<string, { seen: number }>(1_000, { now: () => now });
    for (let i = 0; i < 10; i++) m.set(`old${i}`, { seen: 0 });
    m.set('active', { seen: 0 });
    now = 500;
    for (let i = 0; i < 500; i++) m.set(`young${i}`, { seen: 500 });
    (m.peek('active') as { seen: number }).seen = 450; // used without being moved
    const before = m.work;
    assert.equal(m.expire(100, (v) => v.seen < 100), 10);
    assert.equal(m.work - before, 11, 'the ten dropped and the one moved; no young entry is visited');
    assert.deepEqual([m.has('old0'), m.has('active'), m.size], [false, true, 501]);
    now = 1_000;
    assert.equal(m.expire(600, (v) => v.seen < 600), 501, 'the moved one is found again once it is old');
  });

  it('clear empties it', () => {
    const m = new LruMap<string, number>(4);
    m.set('a', 1);
    m.clear();
    assert.deepEqual([m.size, m.get('a')], [0, undefined]);
  });

  it('rejects a capacity under 1', () => {
    assert.throws(() => new LruMap(0), /at least 1/);
  });
});
