import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { InProcessFeed } from '../../src/store/sqlite/live-feed.js';
import { SqliteMessageCache } from '../../src/store/sqlite/message-cache.js';
import type { Added, CacheEntry } from '../../src/store/message-cache.js';
import type { Outbound } from '../../src/model/outbound.js';
import { Publisher, type PublishOptions } from '../../src/streams/publisher.js';
import { message } from '../store/contracts/cache-messages.js';

const live: PublishOptions = { cache: true, deliver: true };

/** Resolves after the current turn's end (its check phase): publishes of a later turn follow. */
const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Test double: a real SQLite cache whose commits wait until the test lets each one go, or
 * fail it — a store a round trip away (MongoDB) made slow on demand.
 */
class HeldSqliteCache extends SqliteMessageCache {
  private readonly held: { go(): void; fail(err: Error): void }[] = [];
  private readonly arrivals: (() => void)[] = [];

  override add(entries: readonly CacheEntry[]): Promise<Added> {
    const added = new Promise<void>((resolve, reject) => this.held.push({ go: resolve, fail: reject })).then(() => super.add(entries));
    this.arrivals.shift()?.();
    return added;
  }

  /** Resolves once `count` commits are waiting. */
  async commitWaiting(count = 1): Promise<void> {
    while (this.held.length < count) await new Promise<void>((resolve) => this.arrivals.push(resolve));
  }

  /** Lets the oldest waiting commit go on (or fails it with `err`). */
  letGo(err?: Error): void {
    const next = this.held.shift();
    assert.ok(next, 'a commit is waiting');
    if (err) next.fail(err);
    else next.go();
  }
}

/** The same in a store of two logs: topic `other` is in log 1, the rest in log 0. */
class TwoLogHeldCache extends HeldSqliteCache {
  logOf(topic: string): number {
    return topic === 'other' ? 1 : 0;
  }
}

describe('publisher', () => {
  const closers: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const close of closers) await close();
  });

  /** A publisher on a held in-memory cache, with the batch sizes it committed and the counts of failed ones. */
  function pipeline(batchSize = 0, Cache = HeldSqliteCache): { cache: HeldSqliteCache; publisher: Publisher; committed: number[]; failed: number[]; delivered: string[] } {
    const db = openDatabase('', '');
    const cache = new Cache(db);
    const feed = new InProcessFeed();
    const delivered: string[] = [];
    feed.batches$.subscribe((batch) => delivered.push(...batch.events.map((e) => e.head.id)));
    const committed: number[] = [];
    const failed: number[] = [];
    const publisher = new Publisher(cache, feed, { deliverAt: async () => undefined, cancel: async () => undefined }, {
      batchSize,
      batchTimeoutMs: 0,
      onCommitError: (_err, count) => failed.push(count),
      onCancelError: (err) => assert.fail(err as Error),
      observer: { committed: (size) => committed.push(size) },
    });
    closers.push(async () => {
      await publisher.drain();
      feed.close();
      db.close();
    });
    return { cache, publisher, committed, failed, delivered };
  }

  /** Publishes `count` messages, one per turn: without one commit in flight, one commit each. */
  async function publishOverTurns(publisher: Publisher, count: number, topic: string): Promise<{ ids: string[]; answers: Promise<Outbound>[] }> {
    const ids: string[] = [];
    const answers: Promise<Outbound>[] = [];
    for (let i = 0; i < count; i++) {
      const m = message(topic);
      ids.push(m.id);
      answers.push(publisher.publish(m, live));
      await turnEnd();
    }
    return { ids, answers };
  }

  it('publisher — publishes that arrive during a slow commit, over many turns, are committed together in the next commit (held SQLite cache: a test double)', async () => {
    const { cache, publisher, committed, delivered } = pipeline();
    const first = message('held');
    const firstAnswer = publisher.publish(first, live);
    await cache.commitWaiting();
    const queued = await publishOverTurns(publisher, 20, 'held');
    assert.deepEqual(committed, [], 'nothing committed while the first commit waits');
    cache.letGo();
    await firstAnswer;
    await cache.commitWaiting();
    cache.letGo();
    const answers = await Promise.all(queued.answers);
    assert.deepEqual(committed, [1, 20], 'the 20 publishes of 20 turns in one commit, after the first');
    assert.deepEqual(delivered, [first.id, ...queued.ids], 'delivered in arrival order');
    const seqs = answers.map((a) => a.seq);
    assert.deepEqual(seqs, Array.from({ length: 20 }, (_, i) => i + 2), 'seqs in arrival order, after the first commit\'s');
  });

  it('publisher — in a store of two logs, a commit to one does not wait for a slow commit to the other; each log keeps one in flight (held SQLite cache: a test double)', async () => {
    const { cache, publisher, committed, delivered } = pipeline(0, TwoLogHeldCache);
    const first = message('one');
    const firstAnswer = publisher.publish(first, live);
    await cache.commitWaiting();
    const other = message('other');
    const otherAnswer = publisher.publish(other, live);
    await cache.commitWaiting(2);
    const queued = await publishOverTurns(publisher, 3, 'one');
    assert.deepEqual(committed, [], 'both logs\' commits in flight, neither done');
    cache.letGo();
    cache.letGo();
    await Promise.all([firstAnswer, otherAnswer]);
    await cache.commitWaiting();
    cache.letGo();
    await Promise.all(queued.answers);
    assert.deepEqual(committed, [1, 1, 3], 'log 0\'s queued publishes waited for its own commit, then went in one');
    assert.deepEqual(delivered, [first.id, other.id, ...queued.ids]);
  });

  it('publisher — a queue longer than cache-batch-size goes in commits of at most that many, in arrival order (held SQLite cache: a test double)', async () => {
    const { cache, publisher, committed, delivered } = pipeline(8);
    const firstAnswer = publisher.publish(message('sized'), live);
    await cache.commitWaiting();
    const queued = await publishOverTurns(publisher, 20, 'sized');
    for (let commit = 0; commit < 4; commit++) {
      await cache.commitWaiting();
      cache.letGo();
    }
    await Promise.all([firstAnswer, ...queued.answers]);
    assert.deepEqual(committed, [1, 8, 8, 4]);
    assert.deepEqual(delivered.slice(1), queued.ids);
  });

  it('publisher — a failed commit fails only its own publishes; the queued ones commit next (held SQLite cache: a test double)', async () => {
    const { cache, publisher, committed, failed, delivered } = pipeline();
    const doomed = publisher.publish(message('fails'), live);
    await cache.commitWaiting();
    const queued = await publishOverTurns(publisher, 3, 'fails');
    cache.letGo(new Error('disk I/O error'));
    await assert.rejects(doomed, /disk I\/O error/);
    await cache.commitWaiting();
    cache.letGo();
    await Promise.all(queued.answers);
    assert.deepEqual(failed, [1]);
    assert.deepEqual(committed, [3]);
    assert.deepEqual(delivered, queued.ids);
  });

  it('publisher — drain commits everything queued behind the commit in flight (held SQLite cache: a test double)', async () => {
    const { cache, publisher, committed } = pipeline();
    const firstAnswer = publisher.publish(message('drain'), live);
    await cache.commitWaiting();
    const queued = await publishOverTurns(publisher, 5, 'drain');
    const drained = publisher.drain();
    cache.letGo();
    await cache.commitWaiting();
    cache.letGo();
    await drained;
    await Promise.all([firstAnswer, ...queued.answers]);
    assert.deepEqual(committed, [1, 5]);
  });

  it('publisher — an idle publisher commits each turn\'s publishes at its end, as before', async () => {
    const { cache, publisher, committed } = pipeline();
    for (const count of [1, 3, 2]) {
      const answers = Array.from({ length: count }, () => publisher.publish(message('idle'), live));
      await cache.commitWaiting();
      cache.letGo();
      await Promise.all(answers);
    }
    assert.deepEqual(committed, [1, 3, 2]);
  });
});
