import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../../../src/model/message.js';
import type { MessageCache } from '../../../src/store/message-cache.js';
import { entry, ids, message, now } from './cache-messages.js';
import { needsSharing, pair, type Open, type SuiteOptions } from './instances.js';

/**
 * The MessageCache contract across instances on one database (the nodes of a deployment):
 * part of describeMessageCache, skipped where instances cannot share a database.
 */
export function describeSharedMessageCache(open: Open<MessageCache>, options: SuiteOptions): void {
  describe('two instances on one database', () => {
    const shared = needsSharing(options);

    it('an acknowledged message survives closing and reopening', shared, async () => {
      const first = await open();
      const kept = message('durable');
      await first.instance.add([entry(kept), entry(message('durable', { time: now + 60 }), false)]);
      await first.close();
      const again = (await open(first.location)).instance;
      assert.deepEqual(await ids(again, 'durable', { kind: 'all' }), [kept.id]);
      assert.equal(await again.count(), 2);
    });

    it('stats: each instance adds to one total, none overwriting the other\'s', shared, async () => {
      const [a, b] = await pair(open);
      assert.equal(await a.addStats(3), 3);
      assert.equal(await b.addStats(4), 7);
      assert.deepEqual([await a.addStats(0), await a.loadStats(), await b.loadStats()], [7, 7, 7]);
    });

    it('concurrent writers: every seq unique and increasing per instance, every message replayable from both', shared, async () => {
      const [a, b] = await pair(open);
      const write = async (cache: MessageCache): Promise<{ seqs: number[]; messages: Message[] }> => {
        const seqs: number[] = [];
        const messages: Message[] = [];
        for (let batch = 0; batch < 20; batch++) {
          const some = Array.from({ length: 10 }, () => message('busy'));
          seqs.push(...(await cache.add(some.map((m) => entry(m)))).seqs);
          messages.push(...some);
        }
        return { seqs, messages };
      };
      const [fromA, fromB] = await Promise.all([write(a), write(b)]);
      for (const { seqs } of [fromA, fromB]) assert.ok(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)), 'increasing');
      const bySeq = new Map<number, string>();
      for (const { seqs, messages } of [fromA, fromB]) seqs.forEach((seq, i) => bySeq.set(seq, (messages[i] as Message).id));
      assert.equal(bySeq.size, 400, 'unique');
      const commitOrder = [...bySeq].sort(([x], [y]) => x - y).map(([, id]) => id);
      for (const cache of [a, b]) {
        assert.deepEqual(await ids(cache, 'busy', { kind: 'all' }), commitOrder);
        // The other instance's counts may come a moment later (MessageCache.count).
        assert.equal(await settled(() => cache.count(), 400), 400);
        assert.deepEqual([...(await cache.topics())], ['busy']);
      }
    });

    it('since=<id> returns exactly the later commits of either instance, in commit order', shared, async () => {
      const [a, b] = await pair(open);
      const waiting = message('order');
      await a.add([entry(waiting, false)]);
      const committed: string[] = [];
      for (const [cache, count] of [[a, 1], [b, 2], [a, 3], [b, 1]] as const) {
        const batch = Array.from({ length: count }, () => message('order'));
        await cache.add(batch.map((m) => entry(m)));
        committed.push(...batch.map((m) => m.id));
      }
      assert.deepEqual((await b.release([waiting.id])).map((e) => e.head.id), [waiting.id]);
      committed.push(waiting.id);
      for (const [i, id] of committed.entries()) {
        for (const cache of [a, b]) assert.deepEqual(await ids(cache, 'order', { kind: 'id', id }), committed.slice(i + 1), `since ${i}`);
      }
    });

    it('a release racing a delete of the same message ends one way: released or deleted, never both', shared, async () => {
      const [a, b] = await pair(open);
      for (let round = 0; round < 20; round++) {
        const topic = `race${round}`;
        const scheduled = message(topic, { sequence_id: `s${round}` });
        await a.add([entry(scheduled, false)]);
        const del = message(topic, { event: 'message_delete', sequence_id: `s${round}` });
        // Alternating who goes first gives both outcomes even where calls run one at a time.
        const release = (): Promise<string[]> => a.release([scheduled.id]).then((out) => out.map((e) => e.head.id));
        const remove = (): Promise<string[]> => b.add([entry(del)]).then((added) => added.replaced);
        const [released, replaced] = round % 2 === 0
          ? await Promise.all([release(), remove()])
          : await Promise.all([remove(), release()]).then(([r, l]) => [l, r] as const);
        const wasReleased = released.includes(scheduled.id);
        assert.notEqual(wasReleased, replaced.includes(scheduled.id), `round ${round}: exactly one of release and delete took it`);
        for (const cache of [a, b]) {
          assert.deepEqual(await ids(cache, topic, { kind: 'all' }, true), wasReleased ? [scheduled.id, del.id] : [del.id]);
        }
        assert.deepEqual(await b.release([scheduled.id]), [], 'and it is not released again');
      }
    });

    it('a scheduled message released by both instances at once is handed over once', shared, async () => {
      const [a, b] = await pair(open);
      const due = Array.from({ length: 20 }, () => message('once'));
      await a.add(due.map((m) => entry(m, false)));
      const [fromA, fromB] = await Promise.all([a.release(due.map((m) => m.id)), b.release(due.map((m) => m.id))]);
      const handedOver = [...fromA, ...fromB].map((e) => e.head.id).sort();
      assert.deepEqual(handedOver, due.map((m) => m.id));
      assert.deepEqual(await ids(b, 'once', { kind: 'all' }), [...fromA, ...fromB].sort((x, y) => (x.seq ?? 0) - (y.seq ?? 0)).map((e) => e.head.id));
    });
  });
}

/** What `read` answers once it is `expected`, polled for up to 2 s; else its last answer. */
async function settled<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = performance.now() + 2000;
  for (;;) {
    const value = await read();
    if (value === expected || performance.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
