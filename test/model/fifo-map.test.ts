import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FifoMap } from '../../src/model/fifo-map.js';

const present = (m: FifoMap<string, number>, names: string[]): string[] => names.filter((k) => m.get(k) !== undefined);

describe('fifo map', () => {
  it('refuses a capacity below 1', () => {
    assert.throws(() => new FifoMap(0), /at least 1, got 0/);
  });

  it('holds up to capacity, then drops the oldest inserted in a batch of capacity / 8', () => {
    const m = new FifoMap<string, number>(16);
    for (let i = 0; i < 16; i++) m.set(`k${i}`, i);
    m.get('k0'); // a read does not make an entry younger
    m.set('k16', 16);
    assert.deepEqual([m.size, m.evicted, m.work], [15, 2, 2]);
    assert.deepEqual(present(m, ['k0', 'k1', 'k2', 'k16']), ['k2', 'k16']);
  });

  it('setting a key again makes it the newest', () => {
    const m = new FifoMap<string, number>(8);
    for (let i = 0; i < 8; i++) m.set(`k${i}`, i);
    m.set('k0', 100);
    m.set('k8', 8);
    assert.deepEqual(present(m, ['k0', 'k1', 'k2']), ['k0', 'k2']);
    assert.equal(m.get('k0'), 100);
  });

  it('a capacity of 1 keeps the entry just set', () => {
    const m = new FifoMap<string, number>(1);
    m.set('a', 1);
    m.set('b', 2);
    assert.deepEqual([m.size, m.get('a'), m.get('b')], [1, undefined, 2]);
  });

  it('expire drops the oldest while stale and stops at the first fresh one', () => {
    const m = new FifoMap<string, number>(100);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 9], ['d', 1]] as const) m.set(k, v);
    assert.equal(m.expire((v) => v < 5), 2);
    assert.deepEqual(present(m, ['a', 'b', 'c', 'd']), ['c', 'd']);
    assert.equal(m.work, 3, 'two dropped, one looked at');
  });

  it('costs the same per insert at any size: a million keys through a table of 10,000', () => {
    const m = new FifoMap<number, number>(10_000);
    for (let i = 0; i < 1_000_000; i++) m.set(i, i);
    assert.ok(m.size <= 10_000);
    assert.equal(m.work, m.evicted);
    assert.ok(m.work < 1_000_000, `visited ${m.work}`);
  });
});
