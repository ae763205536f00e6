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

/** The table a migration is emptying, if one is under way (a private field). */
function oldTable(index: IdIndex): Float64Array | undefined {
  return (index as unknown as { old?: Float64Array }).old;
}

/** Whether `id` has an entry still waiting in the old table. */
function inOld(index: IdIndex, id: string): boolean {
  const old = oldTable(index) ?? new Float64Array();
  return old.some((key, i) => i % 2 === 0 && key === hashOf(id));
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

  it('finds, removes and counts mid-growth, in whichever table an entry is', () => {
    const index = new IdIndex(16, 1);
    const ids = Array.from({ length: 12 }, (_, i) => `grow${i}`);
    ids.forEach((id, i) => index.add(id, i)); // the 12th passes 70% of 16: 32 slots, one old moved an add
    assert.ok(oldTable(index), 'migrating');
    const waiting = ids.filter((id) => inOld(index, id));
    assert.ok(waiting.length > 0 && waiting.length < ids.length, `${waiting.length} of 12 still in the old table`);
    ids.forEach((id, i) => assert.equal(index.find(id, () => true), i));
    const gone = waiting[0] as string;
    assert.equal(index.remove(gone, ids.indexOf(gone)), true, 'removed from the old table');
    assert.equal(index.remove(gone, ids.indexOf(gone)), false);
    assert.equal(index.find(gone, () => true), undefined);
    assert.equal(index.size, 11);
    for (let i = 12; oldTable(index); i++) index.add(`grow${i}`, i);
    ids.forEach((id, i) => assert.equal(index.find(id, () => true), id === gone ? undefined : i));
  });

  it('finds, removes and counts mid-shrink', () => {
    const index = new IdIndex(16, 16);
    const ids = Array.from({ length: 100 }, (_, i) => `shrink${i}`);
    ids.forEach((id, i) => index.add(id, i)); // 256 slots
    let removed = 0;
    while (!oldTable(index) || index.size > 30) assert.ok(index.remove(ids[removed] as string, removed++)); // below 32: 128
    assert.ok(oldTable(index), 'migrating');
    const kept = ids.slice(removed);
    const waiting = kept.filter((id) => inOld(index, id));
    assert.ok(waiting.length > 0 && waiting.length < kept.length, `${waiting.length} of ${kept.length} still in the old table`);
    kept.forEach((id) => assert.equal(index.find(id, () => true), ids.indexOf(id)));
    for (const id of [waiting[0] as string, kept.find((id) => !inOld(index, id)) as string]) {
      assert.equal(index.remove(id, ids.indexOf(id)), true);
      assert.equal(index.find(id, () => true), undefined);
    }
    assert.equal(index.size, kept.length - 2);
  });

  it('offers every seq of one hash when they are split between the old table and the new', () => {
    const index = new IdIndex(16, 1);
    [1, 2, 3].forEach((seq) => index.add('same', seq));
    for (let i = 0; i < 9; i++) index.add(`fill${i}`, 100 + i); // the 12th add grows
    assert.ok(inOld(index, 'same'), "'same' not moved yet");
    index.add('same', 4);
    assert.deepEqual(candidates(index, 'same').sort(), [1, 2, 3, 4]);
    assert.equal(index.find('same', (seq) => seq === 2), 2);
    assert.equal(index.remove('same', 2), true);
    assert.equal(index.remove('same', 4), true);
    assert.deepEqual(candidates(index, 'same').sort(), [1, 3]);
  });

  it('agrees with a Map under any sequence of adds and removes, across migrations (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), id: fc.string({ maxLength: 14 }), seq: fc.nat(1000) }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.string({ maxLength: 14 }), seq: fc.nat(1000) }),
      fc.record({ kind: fc.constant('removeHeld' as const), at: fc.nat() }),
    );
    // Steps below 16 let a resize come due mid-migration, which finishes that one first.
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 16, 128), fc.array(op, { maxLength: 600, size: 'max' }), (step, ops) => {
        const index = new IdIndex(4, step);
        const model = new Map<string, number[]>();
        const held: [string, number][] = [];
        for (const op of ops) {
          const [id, seq] = op.kind === 'removeHeld' ? (held[op.at % held.length] ?? ['', -1]) : [op.id, op.seq];
          const seqs = model.get(id) ?? [];
          if (op.kind === 'add') {
            index.add(id, seq);
            model.set(id, [...seqs, seq]);
            held.push([id, seq]);
          } else {
            const at = seqs.indexOf(seq);
            assert.equal(index.remove(id, seq), at >= 0);
            if (at >= 0) {
              model.set(id, seqs.filter((_, i) => i !== at));
              held.splice(held.findIndex(([i, s]) => i === id && s === seq), 1);
            }
          }
          assert.equal(index.size, held.length);
        }
        for (const [id, seqs] of model) assert.deepEqual(candidates(index, id).sort(), [...seqs].sort());
      }),
      { numRuns: 300 },
    );
  });
});
