import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteJobRepository } from '../../src/store/sqlite/job-repository.js';
import { sqliteJobBackend } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { ferretDb, messageNode, testShards, type MessageNode } from '../support/mongo-nodes.js';
import { shardOf } from '../../src/store/topic-logs.js';
import { logCollection } from '../../src/store/mongo/message-log.js';
import { tempDir } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { message } from './contracts/cache-messages.js';
import { idsOf, latencySummary, publish, recorder } from './contracts/feed-nodes.js';
import type { Open } from './contracts/instances.js';
import { describeLiveFeed } from './contracts/live-feed.contract.js';
import { SqliteReceiptStore } from '../../src/store/sqlite/receipt-store.js';

/**
 * A node's cache and feed on MongoDB; its jobs on SQLite (the suite is about the feed, and
 * the MongoDB job repository is built apart). A location is the database.
 */
const mongo: Open<Store> = async (location) => {
  const node = await messageNode(location);
  const jobsDb = openDatabase(join(tempDir(), 'jobs.db'), '');
  const store: Store = {
    cache: node.cache,
    feed: node.feed,
    jobs: sqliteJobBackend(new SqliteJobRepository(jobsDb)),
    receipts: new SqliteReceiptStore(jobsDb),
    close: async () => {
      await node.close();
      jobsDb.close();
      assert.deepEqual(node.log.errors, []);
    },
  };
  return { instance: store, location: node.database, close: () => store.close() };
};

describe('MongoDB live feed (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeLiveFeed('mongodb', mongo, { uncachedAfterStored: true, logOf: (topic) => shardOf(topic, testShards) });
});

/**
 * A node reaching FerretDB through a proxy the test can cut. Its client is closed before
 * the proxy stops (the other order leaves the client looking for its server for 30 s).
 */
async function proxiedNode(database: string): Promise<{ node: MessageNode; proxy: TcpProxy; stop(): Promise<void> }> {
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL((await ferretDb()).url).port) });
  const node = await messageNode(database, { url: `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`, tail: { retryMs: 20 } });
  const stop = async (): Promise<void> => {
    proxy.refusing = false;
    await node.close();
    await node.client.close();
    await proxy.stop();
  };
  return { node, proxy, stop };
}

describe('MongoDB live feed — several nodes on one database', { skip: ferretDbSkip(), timeout: 180_000 }, () => {
  // Closed after each case: every open feed's cursor polls FerretDB, which slows the others.
  const nodes: MessageNode[] = [];
  const proxied: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all([...nodes.splice(0).map((n) => n.close()), ...proxied.splice(0).map((stop) => stop())]);
  });
  const open = async (database?: string): Promise<MessageNode> => {
    const node = await messageNode(database);
    nodes.push(node);
    return node;
  };

  it('feed — a tail takes the batches its node appended without reading them back', async () => {
    // given: two nodes on one database, b watched on the wire; both commit, b's tail reads all
    const a = await open();
    const b = await open(a.database);
    const fromB = recorder(b.feed);
    await Promise.all([publish(a, [message('held')]), publish(b, [message('held')])]);
    await fromB.next(2);
    // Lookups by position that found a batch (a tail polling a position not yet written finds none).
    const asked = new Map<number, number>();
    const found: number[] = [];
    b.client.on('commandStarted', (e) => {
      const filter = e.command.filter as { _id?: unknown } | undefined;
      if (e.commandName === 'find' && /^messages(_\d+)?$/.test(String(e.command.find)) && typeof filter?._id === 'number') asked.set(e.requestId, filter._id);
    });
    b.client.on('commandSucceeded', (e) => {
      const position = asked.get(e.requestId);
      if (position !== undefined && (e.reply as { cursor: { firstBatch: unknown[] } }).cursor.firstBatch.length > 0) found.push(position);
    });

    // when: b commits while its tail waits
    const [own] = await publish(b, [message('held')]);
    await fromB.next(3);

    // then: handed on, never read back
    assert.equal(fromB.events.at(-1)?.seq, own);
    assert.deepEqual(found, []);
  });

  it('feed — two nodes publishing at once: both feeds emit every event once, in one order, each writer\'s in its order', async () => {
    // given: two nodes, four writers on each
    const a = await open();
    const b = await open(a.database);
    const [fromA, fromB] = [recorder(a.feed), recorder(b.feed)];
    const writers = [a, a, a, a, b, b, b, b].map((node, w) => ({ node, batches: Array.from({ length: 8 }, () => [message(`w${w}`), message(`w${w}`)]), uncached: message(`w${w}`) }));
    const total = writers.length * (8 * 2 + 1);

    // when: each writer commits its batches one after another, and a Cache: no message midway
    await Promise.all(
      writers.map(async ({ node, batches, uncached }) => {
        for (const [i, batch] of batches.entries()) await publish(node, batch, i === 4 ? [uncached] : []);
      }),
    );
    const [onA, onB] = await Promise.all([fromA.next(total), fromB.next(total)]);

    // then: the writers' topics are spread over the logs, each topic in one order on every node
    assert.ok(new Set(writers.map((_, w) => shardOf(`w${w}`, testShards))).size > 1);
    const byTopic = (events: typeof onA, w: number): string[] => idsOf(events.filter((e) => e.head.topic === `w${w}`));
    for (const w of writers.keys()) assert.deepEqual(byTopic(onB, w), byTopic(onA, w), `one order of w${w} on every node`);
    assert.equal(new Set(idsOf(onA)).size, total, 'each once');
    for (const [w, { batches, uncached }] of writers.entries()) {
      const own = batches.flat();
      const expected = [...own.slice(0, 8), ...own.slice(8, 10), uncached, ...own.slice(10)].map((m) => m.id);
      assert.deepEqual(idsOf(onA.filter((e) => e.head.topic === `w${w}`)), expected, `writer ${w}`);
    }
    for (const log of new Set(onA.map((e) => shardOf(e.head.topic, testShards)))) {
      const seqs = onA.flatMap((e) => (e.seq === undefined || shardOf(e.head.topic, testShards) !== log ? [] : [e.seq]));
      assert.ok(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)), `positions increase in log ${log}`);
    }
    assert.deepEqual([a.log.errors, b.log.errors], [[], []]);
  });

  it('feed — connections cut mid-stream: the tail reads on after the last batch handed on, no gap, no duplicate', async () => {
    // given: node b reaches the database through a proxy
    const a = await open();
    const { node: b, proxy, stop } = await proxiedNode(a.database);
    proxied.push(stop);
    const fromB = recorder(b.feed);

    // when: a commits 100 batches while b's connections are cut four times
    const published: string[] = [];
    let cut = 0;
    for (let i = 0; i < 100; i++) {
      const batch = [message('cut'), message('cut')];
      await publish(a, batch);
      published.push(...batch.map((m) => m.id));
      if (i % 25 === 10) cut += proxy.cut(1);
    }

    // then: the driver retries a read cut once; a read that fails again is reported, and read again
    assert.deepEqual(idsOf(await fromB.next(200)), published);
    assert.ok(cut > 0, `${cut} sockets cut`);
    assert.ok(b.log.errors.every((e) => e.message.startsWith('live feed: a read of the log failed')), JSON.stringify(b.log.errors));
  });

  it('feed — a node that fell behind the capped log reports the positions it lost, then goes on', async () => {
    // given: node b has read m1, then loses its connection
    const a = await open();
    const { node: b, proxy, stop } = await proxiedNode(a.database);
    proxied.push(stop);
    const fromB = recorder(b.feed);
    const lost = firstValueFrom(b.feed.lost$);
    const m1 = message('roll');
    const [p1] = await publish(a, [m1]);
    assert.deepEqual(idsOf(await fromB.next(1)), [m1.id]);
    proxy.refusing = true;
    proxy.cut(1);

    // when: four more batches commit, and the log drops everything before the fourth (as
    // the capped collection's clean-up does) before b is back
    const later = [message('roll'), message('roll'), message('roll'), message('roll')];
    const positions: number[] = [];
    for (const m of later) positions.push(...(await publish(a, [m])));
    const p4 = positions[2] as number;
    const shard = shardOf('roll', testShards);
    await a.client.db(a.database).collection<{ _id: number }>(logCollection(shard)).deleteMany({ _id: { $lt: p4 } });
    proxy.refusing = false;

    // then: b says which positions it lost, of which log (holding roll, not a topic of another)
    const { covers, ...range } = await lost;
    assert.deepEqual(range, { from: (p1 as number) + 1, to: p4 - 1, log: shard });
    const elsewhere = ['calm', 'calm1', 'calm2', 'calm3', 'calm4'].find((t) => shardOf(t, testShards) !== shard) as string;
    assert.deepEqual([covers?.('roll'), covers?.(elsewhere)], [true, false]);
    // and: delivers what the log still holds
    assert.deepEqual(idsOf(await fromB.next(3)), [m1.id, later[2]?.id, later[3]?.id]);
  });

  it('feed — latency from commit to emission, on the committing node and on another', async (t) => {
    // given
    const a = await open();
    const b = await open(a.database);
    const [fromA, fromB] = [recorder(a.feed), recorder(b.feed)];
    const took = { a: [] as number[], b: [] as number[] };

    // when: 200 publishes, one at a time
    for (let i = 0; i < 200; i++) {
      const m = message('latency');
      const start = performance.now();
      const emitted = Promise.all([fromA.next(i + 1), fromB.next(i + 1)].map((p, node) => p.then(() => took[node === 0 ? 'a' : 'b'].push(performance.now() - start))));
      await publish(a, [m]);
      await emitted;
    }

    // then
    t.diagnostic(`publish → feed, same node: ${latencySummary(took.a)}; other node: ${latencySummary(took.b)}`);
    assert.equal(took.a.length, 200);
    assert.ok(Math.max(...took.a, ...took.b) < 2000, 'every event within 2 s');
  });
});
