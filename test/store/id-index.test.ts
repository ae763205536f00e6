import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hashOf, IdIndex } from '../../src/store/sqlite/id-index.js';

/** Every seq the index offers for `id`, in probe order. */
function candidates(index: IdIndex, id: string): number[] {
  const seen: number[] = [];
  index.find(id, (seq) => (seen.push(seq), false));
  return seen;
}

describe('IdIndex', () => {
  it('finds each id at its seq; an unknown id finds nothing', () => {
    const index = new IdIndex(8);
    index.add('aBcDeFgHiJkL', 1);
    index.add('zzzzzzzzzzzz', 2);
    assert.equal(index.find('aBcDeFgHiJkL', () => true), 1);
    assert.equal(index.find('zzzzzzzzzzzz', () => true), 2);
    assert.equal(index.find('nosuchid0000', () => true), undefined);
    assert.equal(index.size, 2);
  });

  it('offers every seq held under one id until one is accepted (as for two ids of equal hash)', () => {
    const index = new IdIndex(8);
    index.add('same', 10);
    index.add('same', 20);
    assert.deepEqual(candidates(index, 'same').sort(), [10, 20]);
    assert.equal(index.find('same', (seq) => seq === 20), 20);
    assert.equal(index.remove('same', 10), true);
    assert.deepEqual(candidates(index, 'same'), [20]);
    assert.equal(index.remove('same', 10), false, 'a seq not held is not removed');
  });

  it('grows past 70% full and shrinks back below an eighth, keeping every entry', () => {
    const index = new IdIndex(16);
    const ids = Array.from({ length: 5000 }, (_, i) => `id${i}`);
    ids.forEach((id, i) => index.add(id, i));
    ids.forEach((id, i) => assert.equal(index.find(id, () => true), i));
    ids.slice(0, 4990).forEach((id, i) => assert.ok(index.remove(id, i)));
    assert.equal(index.size, 10);
    ids.slice(4990).forEach((id, i) => assert.equal(index.find(id, () => true), 4990 + i));
    index.clear();
    assert.equal(index.size, 0);
    assert.equal(index.find('id4999', () => true), undefined);
  });

  it('hashes to a non-zero integer below 2^52, spread over slots', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => hashOf(`msg${String(i).padStart(9, '0')}`));
    for (const key of keys) assert.ok(Number.isInteger(key) && key > 0 && key < 2 ** 52);
    assert.equal(new Set(keys).size, keys.length);
    const homes = new Set(keys.map((key) => Math.floor(key / 2 ** 20) & 1023));
    assert.ok(homes.size > 990, `${homes.size} of 1024 first slots used by 10,000 similar ids`);
  });

  it('agrees with a Map under any sequence of adds and removes (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), id: fc.string({ maxLength: 14 }), seq: fc.nat(1000) }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.string({ maxLength: 14 }), seq: fc.nat(1000) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const index = new IdIndex(4);
        const model = new Map<string, number[]>();
        for (const { kind, id, seq } of ops) {
          const held = model.get(id) ?? [];
          if (kind === 'add') {
            index.add(id, seq);
            model.set(id, [...held, seq]);
          } else {
            const at = held.indexOf(seq);
            assert.equal(index.remove(id, seq), at >= 0);
            if (at >= 0) model.set(id, held.filter((_, i) => i !== at));
          }
        }
        let total = 0;
        for (const [id, seqs] of model) {
          total += seqs.length;
          assert.deepEqual(candidates(index, id).sort(), [...seqs].sort());
        }
        assert.equal(index.size, total);
      }),
      { numRuns: 300 },
    );
  });
});
