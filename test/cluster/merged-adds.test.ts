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

  add = (entries: readonly CacheEntry[]): Promise<Added> => {
    this.calls.push(entries.map((e) => e.message.id));
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
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('merged adds — one commit in flight per log, the next taking every add that waited', () => {
  it('adds that arrive during a commit go in the next one, in order, each answered with its own numbers', async () => {
    const held = new HeldAdd();
    const merged = new MergedAdds(held.add);
    const first = merged.commit(0, [entry('a')]);
    const second = merged.commit(0, [entry('b'), entry('c')]);
    const third = merged.commit(0, [entry('d')]);
    const otherLog = merged.commit(1, [entry('x', 'u')]);
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
    const merged = new MergedAdds(held.add);
    const first = merged.commit(0, [entry('a')]);
    const second = merged.commit(0, [entry('b')]);
    const third = merged.commit(0, [entry('c')]);
    await held.commitOne();
    await first;
    held.failNext = true;
    const failed = [assert.rejects(second, /database gone/), assert.rejects(third, /database gone/)];
    await held.commitOne();
    await Promise.all(failed);
    const fourth = merged.commit(0, [entry('d')]);
    await held.commitOne();
    assert.deepEqual(await fourth, { seqs: [2], replaced: ['r1'] });
    assert.deepEqual(held.calls, [['a'], ['b', 'c'], ['d']]);
  });
});
