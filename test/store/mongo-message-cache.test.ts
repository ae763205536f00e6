import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db, MongoClient } from 'mongodb';
import { randomId } from '../../src/model/message.js';
import type { MessageCache } from '../../src/store/message-cache.js';
import { StoreWriteError } from '../../src/store/write-error.js';
import { MongoMessageCache } from '../../src/store/mongo/message-cache.js';
import { LogShards } from '../../src/store/mongo/log-shards.js';
import { shardOf } from '../../src/store/topic-logs.js';
import { logCollection } from '../../src/store/mongo/message-log.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog, testShards } from '../support/mongo-nodes.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { entry, ids, message, now } from './contracts/cache-messages.js';
import type { Open } from './contracts/instances.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/**
 * A node's cache on its own client, without the live feed (every feed's cursor polls the
 * server, which would slow the whole suite); a location is the database.
 */
async function openCache(database: string, client?: MongoClient): Promise<{ cache: MongoMessageCache; db: Db; log: RecordedLog }> {
  const db = (client ?? (await connect())).db(database);
  const log = new RecordedLog();
  const cache = await MongoMessageCache.open(db, await LogShards.open(db, testShards, 64 << 20), (err) => log.error({ err }, 'clean-up'));
  return { cache, db, log };
}

const mongo: Open<MessageCache> = async (location) => {
  const database = location ?? (await ferretDb()).databaseName('cache');
  const { cache, log } = await openCache(database);
  return {
    instance: cache,
    location: database,
    close: async () => {
      await cache.close();
      assert.deepEqual(log.errors, []);
    },
  };
};

describe('MongoDB message cache (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeMessageCache('mongodb', mongo, { shared: true, heldIdsUnchecked: 'ids are random; MongoDB does not pay a write per id to look (mongo/message-cache.ts)' });

  it('cache — a scheduled message whose waiting copy a crash lost is released from the log, once', async () => {
    // given: a scheduled message, and what a crash between its log insert and its copy leaves
    const { cache, db } = await openCache((await ferretDb()).databaseName('crash'));
    const waiting = message('crash', { time: now + 60 });
    await cache.add([entry(waiting, false)]);
    await db.collection<{ _id: string }>('scheduled_messages').deleteOne({ _id: waiting.id });

    // when
    const released = await cache.release([waiting.id]);

    // then
    assert.deepEqual(released.map((e) => e.head.id), [waiting.id]);
    assert.deepEqual(await cache.release([waiting.id]), []);
    assert.deepEqual(await ids(cache, 'crash', { kind: 'all' }), [waiting.id]);
  });

  it('cache — a trim of a topic with many more messages than it keeps holds few at a time and keeps the newest, also after a second trim', async () => {
    // given: 2,500 messages in one topic, out of time order, and a trim keeping 3
    const { cache } = await openCache((await ferretDb()).databaseName('trim-many'));
    const many = Array.from({ length: 2500 }, (_, i) => message('many', { time: now - 5000 + ((i * 7919) % 2500) }));
    for (let i = 0; i < many.length; i += 100) await cache.add(many.slice(i, i + 100).map((m) => entry(m))); // FerretDB indexes a batch's ids in one row
    const newest = [...many].sort((a, b) => a.time - b.time).slice(-3);

    // when
    const first = await cache.trim('many', 3);
    const later = message('many');
    await cache.add([entry(later)]);
    const second = await cache.trim('many', 3);

    // then
    assert.deepEqual(first, { count: 2497, newest: now - 5000 + 2496 });
    assert.deepEqual(second, { count: 1, newest: now - 5000 + 2497 });
    assert.deepEqual(await ids(cache, 'many', { kind: 'all' }), [...newest.slice(1).map((m) => m.id), later.id]);
  });

  it('cache — an import cut off between recording its ids and its log insert is completed by the next', async () => {
    // given: ids an import recorded before its process died, its messages in no batch
    const { cache, db } = await openCache((await ferretDb()).databaseName('import-cut'));
    const [a, b] = [message('cut', { time: now - 20 }), message('cut', { time: now - 10 })];
    await db.collection<{ _id: string; expires: number }>('message_ids').insertOne({ _id: a.id, expires: a.expires as number });

    // when
    const added = await cache.import([entry(a), entry(b)]);

    // then
    assert.equal(added, 2);
    assert.deepEqual(await ids(cache, 'cut', { kind: 'all' }), [a.id, b.id]);
    assert.equal(await cache.import([entry(a), entry(b)]), 0);
  });

  it('cache — an import of many topics is written in order, in log inserts FerretDB can index', async () => {
    // given: 300 messages on 300 random topics of 40 characters, more than one index row of
    // FerretDB holds (random, so PostgreSQL cannot compress them to fit)
    const { cache } = await openCache((await ferretDb()).databaseName('import-topics'));
    const many = Array.from({ length: 300 }, () => message(randomId(40)));

    // when
    const added = await cache.import(many.map((m) => entry(m)));

    // then
    assert.equal(added, 300);
    assert.equal(await cache.count(), 300);
    const [first, last] = [many[0]!, many[299]!];
    assert.deepEqual(await ids(cache, first.topic, { kind: 'all' }), [first.id]);
    assert.deepEqual(await ids(cache, last.topic, { kind: 'id', id: first.id }), [last.id], 'later in the import, later in the log');
  });

  it('cache — a commit of many topics is written in order, in log inserts FerretDB can index', async () => {
    // given: one commit of 300 messages on 300 random topics of 40 characters (a group commit under load)
    const { cache } = await openCache((await ferretDb()).databaseName('add-topics'));
    const many = Array.from({ length: 300 }, () => message(randomId(40)));

    // when
    const { seqs } = await cache.add(many.map((m) => entry(m)));

    // then: one position each, consecutive within each log (one writer), each message replayed on its topic
    const logs = many.map((m) => shardOf(m.topic, testShards));
    assert.equal(new Set(logs).size, testShards, 'spread over every log');
    for (const log of new Set(logs)) {
      const own = seqs.filter((_, i) => logs[i] === log);
      assert.deepEqual(own, own.map((_, i) => (own[0] as number) + i), `log ${log}`);
    }
    assert.equal(await cache.count(), 300);
    assert.deepEqual(await ids(cache, many[299]!.topic, { kind: 'all' }), [many[299]!.id]);
  });

  it('cache — a commit of many messages on one topic is written in log inserts FerretDB can index (their ids)', async () => {
    // given: one commit of 400 short messages on one topic (three nodes' publishers merged
    // at the log's leader): 400 random ids, as the server makes them, are more than one
    // index row of FerretDB holds (PostgreSQL compresses the row, so sequential ids would fit)
    const { cache } = await openCache((await ferretDb()).databaseName('add-ids'));
    const many = Array.from({ length: 400 }, () => message('busy', { id: randomId() }));

    // when
    const { seqs } = await cache.add(many.map((m) => entry(m)));

    // then: consecutive positions, every message replayed once, in order
    assert.deepEqual(seqs, seqs.map((_, i) => (seqs[0] as number) + i));
    assert.deepEqual(await ids(cache, 'busy', { kind: 'all' }), many.map((m) => m.id));
    assert.deepEqual(await ids(cache, 'busy', { kind: 'id', id: many[199]!.id }), many.slice(200).map((m) => m.id));
  });

  it('cache — a commit past MongoDB\'s 16 MB document limit is written as several batches, every message stored once', async () => {
    // given: 4,000 messages of 4 KB bodies on one topic: about 17 MB as one document
    const { cache, db } = await openCache((await ferretDb()).databaseName('add-big'));
    const big = Array.from({ length: 4000 }, () => message('big', { message: 'x'.repeat(4096) }));

    // when
    const { seqs } = await cache.add(big.map((m) => entry(m)));

    // then
    assert.equal(new Set(seqs).size, 4000);
    assert.deepEqual(await ids(cache, 'big', { kind: 'all' }), big.map((m) => m.id));
    const batches = await db.collection(logCollection(shardOf('big', testShards))).countDocuments({ topics: 'big' });
    assert.ok(batches >= 9, `${batches} batches of at most 2 MB`);
  });

  it('cache — a commit does not wait for the tallies\' write (a stubbed bulkWrite that never answers stands in for a slow one)', async () => {
    // given: a cache whose tallies are never written
    const db = (await connect()).db((await ferretDb()).databaseName('tallies-unwaited'));
    const collection = db.collection.bind(db);
    db.collection = ((name: string, options?: object) => {
      const c = collection(name, options);
      if (name === 'cache_tallies') c.bulkWrite = () => new Promise(() => undefined);
      return c;
    }) as typeof db.collection;
    const cache = await MongoMessageCache.open(db, await LogShards.open(db, testShards, 64 << 20), () => undefined);

    // when
    const m = message('unwaited');
    const added = await Promise.race([cache.add([entry(m)]), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the commit waited for the tallies')), 3000).unref())]);

    // then: committed and answered as usual
    assert.equal(added.seqs.length, 1);
    assert.deepEqual(await ids(cache, 'unwaited', { kind: 'all' }), [m.id]);
  });

  it('cache — a write the database does not answer fails as StoreWriteError (not writable), leaving nothing', async () => {
    // given: a node whose connections to the database are cut and refused (but its monitor's: see TcpProxy.cut)
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL((await ferretDb()).url).port) });
    const client = await connect(`mongodb://127.0.0.1:${proxy.port}/?directConnection=true`, { serverSelectionTimeoutMS: 300 });
    try {
      const database = (await ferretDb()).databaseName('unreachable');
      const { cache } = await openCache(database, client);
      const lost = message('away');
      proxy.refusing = true;
      proxy.cut(1);

      // when
      const failure = await cache.add([entry(lost)]).then(() => undefined, (err: unknown) => err);

      // then
      assert.ok(failure instanceof StoreWriteError, String(failure));
      assert.equal(failure.full, false);
      const { cache: other } = await openCache(database);
      assert.deepEqual(await ids(other, 'away', { kind: 'all' }), []);
      assert.equal(await other.count(), 0);
    } finally {
      // Reachable again first: a client closed with its server out of reach may wait for it.
      proxy.refusing = false;
      await client.close();
      await proxy.stop();
    }
  });
});
