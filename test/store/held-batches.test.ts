import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeldBatches } from '../../src/store/mongo/held-batches.js';
import type { LogBatch } from '../../src/store/mongo/message-log.js';

const batch = (at: number, bytes = 10): LogBatch => ({ _id: at, last: at, events: [{ id: `m${at}`, topic: 't', time: 1, expires: 0, json: 'x'.repeat(bytes), kind: 'stored' }] });

describe('held batches — what a tail need not read back', () => {
  it('keeps at most the count and the bytes given, dropping the lowest positions first', () => {
    const held = new HeldBatches(3, 1_000_000);
    for (const at of [5, 2, 9, 7]) held.put(batch(at));
    assert.deepEqual([2, 5, 7, 9].map((at) => held.get(at)?._id), [undefined, 5, 7, 9]);
    const small = new HeldBatches(100, 700);
    for (const at of [1, 2, 3]) small.put(batch(at, 200));
    assert.deepEqual([1, 2, 3].map((at) => small.get(at)?._id), [undefined, 2, 3], 'three of ~330 B pass 700 B');
  });

  it('take removes, dropThrough forgets what the tail read', () => {
    const held = new HeldBatches(10, 1_000_000);
    for (const at of [1, 2, 3, 4]) held.put(batch(at));
    assert.equal(held.take(2)?._id, 2);
    assert.equal(held.take(2), undefined);
    held.dropThrough(3);
    assert.deepEqual([1, 3, 4].map((at) => held.get(at)?._id), [undefined, undefined, 4]);
  });

  it('waitFor answers a batch put within the wait, and undefined after it', async () => {
    const held = new HeldBatches(10, 1_000_000);
    const coming = held.waitFor(8, 1000);
    const never = held.waitFor(9, 20);
    held.put(batch(8));
    assert.equal((await coming)?._id, 8);
    assert.equal(await never, undefined);
    assert.equal((await held.waitFor(8, 1))?._id, 8, 'already held');
  });
});
