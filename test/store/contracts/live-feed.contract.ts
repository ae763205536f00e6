import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { concatMap, connectable, firstValueFrom, ReplaySubject, take, toArray, type Observable } from 'rxjs';
import { sequenceEvent } from '../../../src/model/message.js';
import type { Outbound } from '../../../src/model/outbound.js';
import { positionIn, type LiveFeed } from '../../../src/store/live-feed.js';
import type { Store } from '../../../src/store/store.js';
import { TopicHub } from '../../../src/streams/hub.js';
import { Publisher, type PublishOptions } from '../../../src/streams/publisher.js';
import { Scheduler } from '../../../src/streams/scheduler.js';
import { openSubscription } from '../../../src/streams/subscription.js';
import { message, now } from './cache-messages.js';
import type { Open } from './instances.js';

const live: PublishOptions = { cache: true, deliver: true };
const uncached: PublishOptions = { cache: false, deliver: true };
const scheduled: PublishOptions = { cache: true, deliver: false };

/** Every event the feed emits from now on, in order, replayed to each later subscriber. */
function recorded(feed: LiveFeed): Observable<Outbound> {
  const events$ = connectable(feed.batches$.pipe(concatMap((batch) => batch.events)), { connector: () => new ReplaySubject<Outbound>() });
  events$.connect();
  return events$;
}

/** The first `count` events of `events$` (waits for them: a feed may emit after the publish is answered). */
function first(events$: Observable<Outbound>, count: number): Promise<Outbound[]> {
  return firstValueFrom(events$.pipe(take(count), toArray()));
}

const idsOf = (events: readonly Outbound[]): string[] => events.map((e) => e.head.id);

export interface FeedSuiteOptions {
  /**
   * The feed writes a publish batch's `Cache: no` messages as a commit of their own, after
   * its stored ones (a feed that tails the database): concurrent publishes, so no order
   * between them is lost, but the contract's "where their batch put them" reads "after".
   */
  uncachedAfterStored: boolean;
  /** The log a topic's messages are in, for a feed of several (FeedPosition); 0 by default. */
  logOf?: (topic: string) => number;
}

/**
 * The contract of the LiveFeed port (src/store/live-feed.ts), for every backend: a runner
 * calls this with the backend's factory of stores (cache, jobs and feed). Each case opens
 * a fresh database and drives the feed as the server does, by the Publisher on the same
 * store's cache and jobs.
 */
export function describeLiveFeed(name: string, open: Open<Store>, options: FeedSuiteOptions = { uncachedAfterStored: false }): void {
  describe(`live feed contract — ${name}`, { timeout: 30_000 }, () => {
    const closers: (() => Promise<void>)[] = [];
    after(async () => {
      for (const close of closers) await close();
    });

    /** A fresh store, its publisher (the feed's writer: a batch per turn, or per `batchSize` publishes) and what the feed emits. */
    async function pipeline(batchSize = 0): Promise<{ feed: LiveFeed; store: Store; publisher: Publisher; events$: Observable<Outbound>; commitErrors: number[] }> {
      const { instance: store, close } = await open();
      const commitErrors: number[] = [];
      const scheduler: Scheduler = new Scheduler(
        store.jobs,
        { release: (id) => publisher.release(id), housekeeping: async () => undefined },
        { housekeepingEveryMs: 3_600_000, onError: (err) => assert.fail(err) },
      );
      const publisher = new Publisher(store.cache, store.feed, scheduler, {
        batchSize,
        batchTimeoutMs: 0,
        onCommitError: (_err, count) => commitErrors.push(count),
        onCancelError: (err) => assert.fail(err as Error),
      });
      closers.push(async () => {
        await publisher.drain();
        await scheduler.stop();
        await close();
      });
      return { feed: store.feed, store, publisher, events$: recorded(store.feed), commitErrors };
    }

    it('live feed — emits the committed events in commit order across batches, stored ones with their increasing seq', async () => {
      const { publisher, events$ } = await pipeline();
      // One topic: order and seqs hold within a topic (a store of several logs has one per log).
      const [a, b] = [message('one'), message('one')];
      const [cleared, deleted] = [sequenceEvent('message_clear', 'one', 's1'), sequenceEvent('message_delete', 'one', 's2')];
      const firstBatch = await Promise.all([publisher.publish(a, live), publisher.publish(b, live), publisher.publish(cleared, live)]);
      const secondBatch = await Promise.all([publisher.publish(deleted, live)]);
      const events = await first(events$, 4);
      assert.deepEqual(idsOf(events), [a.id, b.id, cleared.id, deleted.id]);
      assert.deepEqual(events.map((e) => e.head.event), ['message', 'message', 'message_clear', 'message_delete']);
      const acknowledged = [...firstBatch, ...secondBatch].map((e) => e.seq);
      assert.deepEqual(events.map((e) => e.seq), acknowledged, 'the seq each publish was answered with');
      assert.ok(acknowledged.every((seq, i) => seq !== undefined && (i === 0 || seq > (acknowledged[i - 1] as number))), `increasing: ${acknowledged.join(' ')}`);
    });

    it('live feed — Cache: no messages come in their batch\'s order, without a seq', async () => {
      const { publisher, events$ } = await pipeline();
      const [s1, u1, s2, u2] = [message('mix'), message('mix'), message('mix'), message('mix')];
      await Promise.all([publisher.publish(s1, live), publisher.publish(u1, uncached), publisher.publish(s2, live), publisher.publish(u2, uncached)]);
      const events = await first(events$, 4);
      const [order, seqAt] = options.uncachedAfterStored ? [[s1, s2, u1, u2], [0, 2, 1, 3]] : [[s1, u1, s2, u2], [0, 1, 2, 3]];
      assert.deepEqual(idsOf(events), order.map((m) => m.id));
      const [seq1, none1, seq2, none2] = seqAt.map((i) => events[i]?.seq);
      assert.equal(none1, undefined);
      assert.equal(none2, undefined);
      assert.ok(seq1 !== undefined && seq2 !== undefined && seq1 < seq2, `stored seqs ${seq1} < ${seq2}`);
    });

    it('live feed — a scheduled message is emitted only when released, after the messages committed while it waited', async () => {
      const { publisher, events$ } = await pipeline();
      const waiting = message('later', { time: now + 3600 });
      await publisher.publish(waiting, scheduled);
      const newer = await publisher.publish(message('later'), live);
      await publisher.release(waiting.id);
      await publisher.release(waiting.id);
      const next = await publisher.publish(message('later'), live);
      const events = await first(events$, 3);
      assert.deepEqual(idsOf(events), [newer.head.id, waiting.id, next.head.id], 'released once, not when scheduled');
      const released = events[1]?.seq;
      assert.ok(released !== undefined && released > (newer.seq as number) && released < (next.seq as number), `released under a fresh seq (${released})`);
    });

    it('live feed — the position moves only after the followers received the batch that carries it', async () => {
      const { feed, publisher, events$ } = await pipeline();
      const position = (): number => positionIn(feed.position, options.logOf?.('pos') ?? 0);
      const start = position();
      const atArrival: number[] = [];
      feed.batches$.subscribe(() => atArrival.push(position()));
      const a = await publisher.publish(message('pos'), live);
      await first(events$, 1);
      assert.equal(position(), a.seq);
      await publisher.publish(message('pos'), uncached);
      await first(events$, 2);
      assert.equal(position(), a.seq, 'an uncached message carries no position');
      const [, c] = await Promise.all([publisher.publish(message('pos'), live), publisher.publish(message('pos'), live)]);
      await first(events$, 4);
      assert.equal(position(), c.seq, 'the highest seq of the batch');
      assert.deepEqual(atArrival, [start, a.seq, a.seq], 'while a batch is handed on, the position is still the one before it');
    });

    it('live feed — nothing is emitted for a batch whose commit failed', async () => {
      const { feed, publisher, events$, commitErrors } = await pipeline();
      const held = await publisher.publish(message('fail'), live);
      const twice = message('fail');
      const failing = [publisher.publish(message('fail'), live), publisher.publish(message('fail'), uncached), publisher.publish(twice, live), publisher.publish({ ...twice }, live)];
      const results = await Promise.allSettled(failing);
      assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected', 'rejected'], 'an id twice in one batch fails the whole batch');
      assert.deepEqual(commitErrors, [4]);
      assert.deepEqual(idsOf(await first(events$, 1)), [held.head.id], 'a feed may emit after the publish is answered');
      assert.equal(positionIn(feed.position, options.logOf?.('fail') ?? 0), held.seq);
      const next = await publisher.publish(message('fail'), live);
      assert.deepEqual(idsOf(await first(events$, 2)), [held.head.id, next.head.id]);
    });

    it('live feed — a subscription opened during a burst of publishes gets every message once, in order, across replay and live', async () => {
      // One publish per batch: its commit starts at once, so subscriptions open between a
      // commit and its emission (replayed and still to come live) as well as between batches.
      const { store, publisher } = await pipeline(1);
      const hub = new TopicHub();
      hub.follow(store.feed.batches$);
      const deps = { hub, cache: store.cache, feed: store.feed, replayLimit: 10 * 1024 * 1024 };
      const request = { topics: ['burst'], since: { kind: 'all' } as const, scheduled: false, filter: {}, poll: false };
      const unlimited = { reserve: (bytes: number) => bytes, settle: () => undefined };
      const burst = Array.from({ length: 40 }, () => message('burst'));
      const received: Promise<string[]>[] = [];
      const answered: Promise<Outbound>[] = [];
      for (const [i, m] of burst.entries()) {
        answered.push(publisher.publish(m, live));
        received.push(
          openSubscription(deps, request, unlimited).then(({ replay, live$ }) =>
            firstValueFrom(live$.pipe(take(burst.length - replay.json.length), toArray())).then((events) => idsOf([...replay.events, ...events])),
          ),
        );
        if (i % 3 === 1) await Promise.resolve();
        if (i % 5 === 2) await new Promise(setImmediate);
      }
      await Promise.all(answered);
      const subscriptions = await Promise.all(received);
      assert.equal(subscriptions.length, burst.length);
      for (const [i, ids] of subscriptions.entries()) assert.deepEqual(ids, burst.map((m) => m.id), `subscription ${i}`);
    });

    it('live feed — completes when the store closes', async () => {
      const { instance: store, close } = await open();
      let completed = false;
      store.feed.batches$.subscribe({ complete: () => (completed = true) });
      await close();
      assert.equal(completed, true);
    });
  });
}
