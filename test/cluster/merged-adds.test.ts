import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MergedAdds } from '../../src/cluster/merged-adds.js';
import type { Added, CacheEntry } from '../../src/store/message-cache.js';

/** An entry whose message is only its id and topic: what MergedAdds passes on. */
const entry = (id: string, topic = 't'): CacheEntry => ({ message: { id, topic, time: 1, event: 'message' } as CacheEntry['message'], json: `{"id":"${id}"}`, published: true });

/** A cache's add that commits when told to, numbering entries from 1 in commit order. */
class HeldAdd {
  readonly calls: string[][] = [];
  private next = 1;
  private readonly release: (() => void)[] = [];
  failNext = false;

  add = (entries: readonly CacheEntry[], prepared = false): Promise<Added> => {
    this.calls.push(entries.map((e) => `${e.message.id}${prepared ? '+' : ''}`));
    return new Promise((resolve, reject) =>
      this.release.push(() => {
        if (this.failNext) {
          this.failNext = false;
          return reject(new Error('database gone'));
        }
        resolve({ seqs: entries.map(() => this.next++), replaced: ['r1'] });
      }),
    );
  };

  /** Lets the oldest add in flight commit, then lets the merged adds run on. */
  async commitOne(): Promise<void> {
    this.release.shift()?.();
    await settled();
  }
}

/** Lets every promise chain run as far as it can. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A cache's prepare that ends when told to (MongoDB's id reservation), failing when asked. */
class HeldPrepare {
  readonly calls: string[][] = [];
  private readonly release: ((fail: boolean) => void)[] = [];

  prepare = (entries: readonly CacheEntry[]): Promise<void> => {
    this.calls.push(entries.map((e) => e.message.id));
    return new Promise((resolve, reject) => this.release.push((fail) => (fail ? reject(new Error('ids held')) : resolve())));
  };

  async endOne(fail = false): Promise<void> {
    this.release.shift()?.(fail);
    await settled();
  }
}

describe('merged adds — one insert in flight per log, the next commit taking every add that waited and preparing meanwhile', () => {
  it('adds that arrive during a commit go in the next one, in order, each answered with its own numbers', async () => {
    const held = new HeldAdd();
    const merged = new MergedAdds({ add: held.add });
    const first = merged.commit(0, [entry('a')]);
    const second = merged.commit(0, [entry('b'), entry('c')]);
    const third = merged.commit(0, [entry('d')]);
    const otherLog = merged.commit(1, [entry('x', 'u')]);
    await settled();
    assert.deepEqual(held.calls, [['a'], ['x']], 'log 1 does not wait for log 0');
    await held.commitOne();
    assert.deepEqual(await first, { seqs: [1], replaced: ['r1'] });
    assert.deepEqual(held.calls, [['a'], ['x'], ['b', 'c', 'd']]);
    await held.commitOne();
    assert.deepEqual(await otherLog, { seqs: [2], replaced: ['r1'] });
    await held.commitOne();
    assert.deepEqual([await second, await third], [{ seqs: [3, 4], replaced: ['r1'] }, { seqs: [5], replaced: ['r1'] }]);
  });

  it('a failed commit fails every add it took, and the next adds commit', async () => {
    const held = new HeldAdd();
    const merged = new MergedAdds({ add: held.add });
    const first = merged.commit(0, [entry('a')]);
    const second = merged.commit(0, [entry('b')]);
    const third = merged.commit(0, [entry('c')]);
    await settled();
    await held.commitOne();
    await first;
    held.failNext = true;
    const failed = [assert.rejects(second, /database gone/), assert.rejects(third, /database gone/)];
    await held.commitOne();
    await Promise.all(failed);
    const fourth = merged.commit(0, [entry('d')]);
    await settled();
    await held.commitOne();
    assert.deepEqual(await fourth, { seqs: [2], replaced: ['r1'] });
    assert.deepEqual(held.calls, [['a'], ['b', 'c'], ['d']]);
  });

  it('the next commit prepares while the one before it inserts, and inserts after it, in order', async () => {
    const [held, prep] = [new HeldAdd(), new HeldPrepare()];
    const merged = new MergedAdds({ prepare: prep.prepare, add: held.add });
    const first = merged.commit(0, [entry('a')]);
    await settled();
    const second = merged.commit(0, [entry('b')]);
    await settled();
    assert.deepEqual([prep.calls, held.calls], [[['a']], []], 'b waits while a prepares');
    await prep.endOne();
    assert.deepEqual([prep.calls, held.calls], [[['a'], ['b']], [['a+']]], 'b prepares while a inserts');
    const third = merged.commit(0, [entry('c')]);
    await prep.endOne();
    assert.deepEqual(held.calls, [['a+']], 'b prepared, its insert waits for a\'s');
    await held.commitOne();
    assert.deepEqual(await first, { seqs: [1], replaced: ['r1'] });
    assert.deepEqual([prep.calls, held.calls], [[['a'], ['b'], ['c']], [['a+'], ['b+']]]);
    await prep.endOne();
    await held.commitOne();
    await held.commitOne();
    assert.deepEqual([await second, await third], [{ seqs: [2], replaced: ['r1'] }, { seqs: [3], replaced: ['r1'] }]);
  });

  it('a failed prepare fails its own adds only; the insert before it and the commit after it stand', async () => {
    const [held, prep] = [new HeldAdd(), new HeldPrepare()];
    const merged = new MergedAdds({ prepare: prep.prepare, add: held.add });
    const first = merged.commit(0, [entry('a')]);
    await settled();
    await prep.endOne();
    const failed = assert.rejects(merged.commit(0, [entry('b')]), /ids held/);
    await settled();
    await prep.endOne(true);
    await failed;
    const third = merged.commit(0, [entry('c')]);
    await settled();
    await prep.endOne();
    await held.commitOne();
    await held.commitOne();
    assert.deepEqual([await first, await third], [{ seqs: [1], replaced: ['r1'] }, { seqs: [2], replaced: ['r1'] }]);
    assert.deepEqual(held.calls, [['a+'], ['c+']]);
  });
});
