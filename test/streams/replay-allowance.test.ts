import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/model/errors.js';
import type { MessageCache, ReplayQuery } from '../../src/store/message-cache.js';
import { openSubscription, type SubscriptionDeps } from '../../src/streams/subscription.js';
import { TopicHub } from '../../src/streams/hub.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { Visitor, type VisitorLimits } from '../../src/visitors/visitor.js';
import { entry, message } from '../store/contracts/cache-messages.js';

const limits = (bandwidth: number): VisitorLimits => ({
  requestBurst: 60,
  requestReplenishMs: 5000,
  messages: 1000,
  subscriptions: 30,
  attachmentFileSize: 0,
  attachmentTotalSize: 0,
  attachmentExpirySeconds: 0, messageExpiryMs: undefined,
  bandwidth,
  emailBurst: 16,
  emailReplenishMs: 3_600_000,
  calls: 0,
  topicCreationBurst: 0,
  topicCreationReplenishMs: 60_000,
});

/** A cache of 10 messages of ~110 bytes on each of `topics`, whose replays resolve only when `release` is called, recording what they were asked. */
async function slowCache(topics: string[]): Promise<{ cache: MessageCache; asked: ReplayQuery[]; loaded: number[]; release: () => void }> {
  const store = openSqliteStore('');
  for (const topic of topics) await store.cache.add(Array.from({ length: 10 }, () => entry(message(topic))));
  const asked: ReplayQuery[] = [];
  const loaded: number[] = [];
  const waiting: (() => void)[] = [];
  const cache = Object.create(store.cache) as MessageCache;
  cache.replay = async (q) => {
    asked.push(q);
    await new Promise<void>((resolve) => waiting.push(resolve));
    const replay = await store.cache.replay(q);
    loaded.push(replay.bytes);
    return replay;
  };
  const release = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { cache, asked, loaded, release };
}

const allowanceOf = (visitor: Visitor) => ({
  reserve: (bytes: number) => visitor.reserve(bytes, Date.now()),
  settle: (reserved: number, spent: number) => visitor.settle(reserved, spent, Date.now()),
});

const poll = (topics: string[]) => ({ topics, since: { kind: 'all' } as const, scheduled: false, filter: {}, poll: true });

/** Runs `work` while releasing each replay it waits for, one at a time. */
async function drain<T>(work: Promise<T>, release: () => void): Promise<T> {
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    release();
    await new Promise(setImmediate);
  }
  return work;
}

describe('replay allowance', () => {
  it('topics are read one at a time, each asked for what is left; a replay that fits is paid exactly', async () => {
    const { cache, asked, loaded, release } = await slowCache(['a', 'b']);
    const deps: SubscriptionDeps = { hub: new TopicHub(), cache, feed: { position: 0 }, replayLimit: 10 * 1024 * 1024 };
    const visitor = new Visitor('v', false, limits(5000), Date.now());
    const opened = await drain(openSubscription(deps, poll(['a', 'b']), allowanceOf(visitor)), release);
    assert.equal(opened.replay.events.length, 20);
    assert.deepEqual(asked.map((q) => [q.topic, q.maxBytes]), [['a', 5000], ['b', 5000 - (loaded[0] as number)]]);
    assert.equal(visitor.bandwidthLeft(Date.now()), 5000 - opened.replay.bytes);
  });

  it('concurrent requests of one visitor cannot together load past its bandwidth; the one that cannot pay is 42905 and pays nothing', async () => {
    const { cache, asked, release } = await slowCache(['a']);
    const deps: SubscriptionDeps = { hub: new TopicHub(), cache, feed: { position: 0 }, replayLimit: 10 * 1024 * 1024 };
    const visitor = new Visitor('v', false, limits(1500), Date.now());
    const first = openSubscription(deps, poll(['a']), allowanceOf(visitor));
    const second = openSubscription(deps, poll(['a']), allowanceOf(visitor));
    assert.deepEqual(asked.map((q) => q.maxBytes), [1500, 0], 'while the first is loading, the second may load nothing');
    release();
    const results = await Promise.allSettled([first, second]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[1].status === 'rejected' && results[1].reason instanceof HttpError && results[1].reason.code, 42905);
    const sent = results[0].status === 'fulfilled' ? results[0].value.replay.bytes : 0;
    assert.ok(sent > 1000 && sent <= 1500);
    assert.equal(visitor.bandwidthLeft(Date.now()), 1500 - sent, 'only what was sent is spent');
  });

  it('a filtered replay pays only what passes the filter; a failed read gives everything back', async () => {
    const { cache, release } = await slowCache(['a']);
    const deps: SubscriptionDeps = { hub: new TopicHub(), cache, feed: { position: 0 }, replayLimit: 10 * 1024 * 1024 };
    const visitor = new Visitor('v', false, limits(5000), Date.now());
    const opened = await drain(openSubscription(deps, { ...poll(['a']), filter: { priorities: [5] } }, allowanceOf(visitor)), release);
    assert.deepEqual([opened.replay.events.length, visitor.bandwidthLeft(Date.now())], [0, 5000]);
    const failing = { ...deps, cache: { ...cache, replay: () => Promise.reject(new Error('disk')) } as MessageCache };
    await assert.rejects(openSubscription(failing, poll(['a']), allowanceOf(visitor)), /disk/);
    assert.equal(visitor.bandwidthLeft(Date.now()), 5000);
  });
});
