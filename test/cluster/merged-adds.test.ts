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
    await settled();
  }
}

/** The pipeline of the node the merged adds run on, and two peers' links: the adds' sources. */
const [self, peerA, peerB] = [{}, {}, {}];

/** Lets every promise chain run as far as it can. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Answers `count` adds in flight, one after another, each `ms` after the one before. */
async function answerAfter(held: HeldAdd, ms: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await held.commitOne();
  }
}

describe('merged adds — one insert in flight per log, the next commit taking every add that waited', () => {
  it('adds that arrive during a commit go in the next one, in order, each answered with its own numbers', async () => {
    const held = new HeldAdd();
    const merged = new MergedAdds(held.add);
    const first = merged.commit(0, [entry('a')], self);
    const second = merged.commit(0, [entry('b'), entry('c')], self);
    const third = merged.commit(0, [entry('d')], self);
    const otherLog = merged.commit(1, [entry('x', 'u')], self);
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
    const merged = new MergedAdds(held.add);
    const first = merged.commit(0, [entry('a')], self);
    const second = merged.commit(0, [entry('b')], self);
    const third = merged.commit(0, [entry('c')], self);
    await settled();
    await held.commitOne();
    await first;
    held.failNext = true;
    const failed = [assert.rejects(second, /database gone/), assert.rejects(third, /database gone/)];
    await held.commitOne();
    await Promise.all(failed);
    const fourth = merged.commit(0, [entry('d')], self);
    await settled();
    await held.commitOne();
    assert.deepEqual(await fourth, { seqs: [2], replaced: ['r1'] });
    assert.deepEqual(held.calls, [['a'], ['b', 'c'], ['d']]);
  });

  it('a commit waits, briefly, for the recent sources that have no add queued, and takes them together', async () => {
    // given: commits of this node's add, then of two peers' adds, each answered after 40 ms
    const held = new HeldAdd();
    const merged = new MergedAdds(held.add);
    const first = [merged.commit(0, [entry('a1')], self), merged.commit(0, [entry('b1')], peerA), merged.commit(0, [entry('c1')], peerB)];
    await settled();
    await answerAfter(held, 40, 2);
    await Promise.all(first);

    // when: the sources come back one after another
    const second = [merged.commit(0, [entry('a2')], self), merged.commit(0, [entry('b2')], peerA)];
    await settled();
    const waited = held.calls.length;
    const third = merged.commit(0, [entry('c2')], peerB);
    await settled();

    // then: the commit waited for the last of them and took all three
    assert.equal(waited, 2, 'no commit while a recent source has no add in');
    assert.deepEqual(held.calls, [['a1'], ['b1', 'c1'], ['a2', 'b2', 'c2']]);
    await held.commitOne();
    assert.deepEqual(await Promise.all([...second, third]), [4, 5, 6].map((n) => ({ seqs: [n], replaced: ['r1'] })));
  });

  it('once an insert ended, the next commit waits briefly for the sources it answered, and takes them with the add that waited during it', async () => {
    // given: a commit of two peers' adds in flight for 20 ms, this node's next add waiting meanwhile
    const held = new HeldAdd();
    const merged = new MergedAdds(held.add);
    const first = merged.commit(0, [entry('a1')], self);
    const peers = [merged.commit(0, [entry('b1')], peerA), merged.commit(0, [entry('c1')], peerB)];
    await settled();
    await answerAfter(held, 20, 1);
    await first;
    const waiting = merged.commit(0, [entry('a2')], self);
    await answerAfter(held, 20, 1);
    await Promise.all(peers);

    // when: the answered peers send their next adds a few milliseconds later
    await new Promise((resolve) => setTimeout(resolve, 2));
    const again = [merged.commit(0, [entry('b2')], peerA), merged.commit(0, [entry('c2')], peerB)];
    await settled();

    // then: the commit after the insert waited for them
    assert.deepEqual(held.calls, [['a1'], ['b1', 'c1'], ['a2', 'b2', 'c2']]);
    await held.commitOne();
    assert.deepEqual(await Promise.all([waiting, ...again]), [4, 5, 6].map((n) => ({ seqs: [n], replaced: ['r1'] })));
  });

  it('a source that stopped sending is waited for at most half a commit\'s time, in the next two commits only', async () => {
    // given: commits of this node's add, then of a peer's, each answered after 20 ms
    const held = new HeldAdd();
    const merged = new MergedAdds(held.add);
    const first = [merged.commit(0, [entry('a1')], self), merged.commit(0, [entry('b1')], peerA)];
    await settled();
    await answerAfter(held, 20, 2);
    await Promise.all(first);

    // when: the peer sends nothing more
    const waits: number[] = [];
    for (const id of ['a2', 'a3', 'a4']) {
      const startedAt = performance.now();
      const added = merged.commit(0, [entry(id)], self);
      while (held.calls.length < waits.length + 3) await new Promise((resolve) => setTimeout(resolve, 1));
      waits.push(performance.now() - startedAt);
      await held.commitOne();
      await added;
    }

    // then: two commits waited (at most 10 ms, half of 20), the third went at once
    assert.deepEqual(held.calls, [['a1'], ['b1'], ['a2'], ['a3'], ['a4']]);
    assert.ok(waits[0]! >= 5 && waits[0]! < 100, `${waits[0]} ms`);
    assert.ok(waits[2]! < 5, `${waits[2]} ms`);
  });
});
