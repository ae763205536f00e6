import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Db } from 'mongodb';
import { loadConfig } from '../../src/config/load.js';
import { MongoMessageCache } from '../../src/store/mongo/message-cache.js';
import { LogShards } from '../../src/store/mongo/log-shards.js';
import { defaultShards, shardOf } from '../../src/store/topic-logs.js';
import { logCollection } from '../../src/store/mongo/message-log.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog } from '../support/mongo-nodes.js';
import { entry, ids, message, now } from './contracts/cache-messages.js';

async function freshDb(label: string): Promise<Db> {
  return (await connect()).db((await ferretDb()).databaseName(label));
}

/** Two topics of different logs out of `count`. */
function topicsApart(count: number): [string, string] {
  const first = 'apart-0';
  for (let i = 1; ; i++) if (shardOf(`apart-${i}`, count) !== shardOf(first, count)) return [first, `apart-${i}`];
}

describe('MongoDB logs — where a topic goes', () => {
  it('the same log for a topic every time, within the count, for any topic ntfy accepts', () => {
    fc.assert(fc.property(fc.stringMatching(/^[-_A-Za-z0-9]{1,64}$/), fc.integer({ min: 1, max: 64 }), (topic, count) => {
      const shard = shardOf(topic, count);
      assert.ok(Number.isInteger(shard) && shard >= 0 && shard < count);
      assert.equal(shardOf(topic, count), shard);
    }));
  });

  it('a placement that never changes across versions (FNV-1a), spreading topics evenly', () => {
    // Pinned: a changed hash would move every topic away from its history.
    assert.deepEqual(['mytopic', 'alerts', 'backup', 'a'].map((t) => shardOf(t, 8)), [6, 6, 7, 4]);
    const counts = Array.from({ length: 8 }, () => 0);
    for (let i = 0; i < 8000; i++) counts[shardOf(`topic${i}`, 8)]! += 1;
    assert.ok(counts.every((n) => n > 850 && n < 1150), counts.join(' '));
  });

  it('database-shards takes 0 to 64; anything else stops the start', () => {
    assert.equal(loadConfig({ flags: { 'database-shards': '16' } }).config.databaseShards, 16);
    assert.equal(loadConfig({}).config.databaseShards, 0);
    assert.throws(() => loadConfig({ flags: { 'database-shards': '65' } }), /database-shards must be between 0 and 64/);
    assert.throws(() => loadConfig({ flags: { 'database-shards': '-1' } }), /invalid value for database-shards: "-1" \(must be a whole number of at least 0\)/);
  });
});

describe('MongoDB logs — shards on FerretDB', { skip: ferretDbSkip() }, () => {
  it('a new database takes the configured count, or 1; a later start with another count stops, naming both; 0 takes the database\'s', async () => {
    const db = await freshDb('shards-count');
    assert.equal((await LogShards.open(db, 3, 3 << 20)).logs.length, 3);
    await assert.rejects(LogShards.open(db, 4, 3 << 20), /^Error: database-shards is 4, but the database's message log has 3 shards: .* set database-shards to 3, or to 0 to take the database's$/);
    assert.equal((await LogShards.open(db, 0, 3 << 20)).logs.length, 3);
    assert.equal((await LogShards.open(await freshDb('shards-default'), 0, 8 << 20)).logs.length, defaultShards);
    const names = (await db.listCollections().toArray()).map((c) => c.name).filter((n) => n.startsWith('messages')).sort();
    assert.deepEqual(names, ['messages', 'messages_1', 'messages_2']);
  });

  it('a database of an older version (one log, no count recorded) keeps its one log', async () => {
    const db = await freshDb('shards-older');
    await db.createCollection(logCollection(0), { capped: true, size: 1 << 20 });
    assert.equal((await LogShards.open(db, 0, 1 << 20)).logs.length, 1);
    await assert.rejects(LogShards.open(db, 8, 1 << 20), /database-shards is 8, but the database's message log has 1 shards/);
  });

  it('nodes starting at once on a new database agree on one count', async () => {
    const db = await freshDb('shards-race');
    const opened = await Promise.allSettled([LogShards.open(db, 0, 4 << 20), LogShards.open(await freshDbSame(db), 0, 4 << 20)]);
    assert.deepEqual(opened.map((o) => o.status === 'fulfilled' && o.value.logs.length), [defaultShards, defaultShards]);
  });

  it('a commit of two logs\' topics goes to both logs; each topic replays in order; since= a message of another log replays from its time', async () => {
    // given
    const db = await freshDb('shards-commit');
    const shards = await LogShards.open(db, 4, 4 << 20);
    const errors = new RecordedLog();
    const cache = await MongoMessageCache.open(db, shards, (err) => errors.error({ err }, 'clean-up'));
    const [one, two] = topicsApart(4);
    const old = message(two, { time: now - 100 });
    await cache.add([entry(old)]);
    const batch = [message(one, { time: now - 50 }), message(two, { time: now - 50 }), message(one), message(two)];

    // when
    const { seqs } = await cache.add(batch.map((m) => entry(m)));

    // then: one insert in each topic's log, positions in order within each
    for (const topic of [one, two]) {
      const log = db.collection(logCollection(shardOf(topic, 4)));
      assert.equal(await log.countDocuments({ topics: topic }), topic === two ? 2 : 1);
    }
    assert.ok((seqs[0] as number) < (seqs[2] as number) && (seqs[1] as number) < (seqs[3] as number));
    assert.deepEqual(await ids(cache, one, { kind: 'all' }), [batch[0]!.id, batch[2]!.id]);
    assert.deepEqual(await ids(cache, two, { kind: 'id', id: old.id }), [batch[1]!.id, batch[3]!.id], 'since= its own log\'s message: by position');
    assert.deepEqual(await ids(cache, two, { kind: 'id', id: batch[0]!.id }), [batch[1]!.id, batch[3]!.id], 'since= another log\'s message: from its time on');
    assert.equal(await cache.count(), 5);
    assert.deepEqual(errors.errors, []);
  });
});

/** Another client's handle on `db`: a second node. */
async function freshDbSame(db: Db): Promise<Db> {
  return (await connect()).db(db.databaseName);
}
