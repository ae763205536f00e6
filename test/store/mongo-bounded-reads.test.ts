import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandStartedEvent, Db, Document } from 'mongodb';
import type { Message } from '../../src/model/message.js';
import type { Since } from '../../src/store/message-cache.js';
import { MongoMessageCache } from '../../src/store/mongo/message-cache.js';
import { LogShards } from '../../src/store/mongo/log-shards.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog, rollOut } from '../support/mongo-nodes.js';
import { entry, gapOf, ids, message, now } from './contracts/cache-messages.js';

/** A cache on a client of its own that records every command it sends, on a fresh database, with one log (the `messages` collection the tests watch). */
async function watchedCache(label: string, capBytes = 64 << 20): Promise<{ cache: MongoMessageCache; commands: CommandStartedEvent[]; errors: RecordedLog; db: Db }> {
  const commands: CommandStartedEvent[] = [];
  const client = await connect(undefined, { monitorCommands: true });
  client.on('commandStarted', (e) => commands.push(e));
  const db = client.db((await ferretDb()).databaseName(label));
  const errors = new RecordedLog();
  const cache = await MongoMessageCache.open(db, await LogShards.open(db, 1, capBytes), (err) => errors.error({ err }, 'clean-up'));
  return { cache, commands, errors, db };
}

/** The commands sent to the log's collection from `from` on. */
const onLog = (commands: CommandStartedEvent[], from: number): Document[] =>
  commands.slice(from).map((c) => c.command).filter((c) => Object.values(c)[0] === 'messages');

/**
 * Whether `filter` is what FerretDB 1.24 hands to PostgreSQL (an equality on a topic, an
 * id or a claim), with at most a range on `_id` beside a topic (which MongoDB's `topics`
 * index serves, and FerretDB applies to that topic's batches).
 */
function byEquality(filter: Document): boolean {
  const { topics, ids: held, claim, _id, ...rest } = filter as Record<string, unknown>;
  const equalities = [topics, held, claim].filter((v) => v !== undefined);
  if (Object.keys(rest).length > 0 || equalities.length !== 1 || typeof equalities[0] !== 'string') return false;
  return _id === undefined || (topics !== undefined && Object.keys(_id as object).join() === '$gte');
}

/** The read of the log's oldest batch (log-lookups.ts oldestHeld): no filter, one document. */
const isOldestBatch = (read: Document): boolean => Object.keys(read.filter as Document).length === 0 && read.limit === 1;

describe('MongoDB cache reads (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('replay — every since= form, and the scheduled part, reads the log by equality on the topic, an id or a claim only', async () => {
    // given: a topic among others, a released message, and one still waiting
    const { cache, commands, errors } = await watchedCache('equality');
    const [m1, m2] = [message('eq', { time: now - 30 }), message('eq', { time: now - 20 })];
    const [due, later] = [message('eq', { time: now + 60 }), message('eq', { time: now + 90 })];
    await cache.add([entry(m1), entry(message('other')), entry(due, false), entry(later, false)]);
    await cache.add([entry(m2)]);
    await cache.release([due.id]);
    const from = commands.length;

    // when
    const forms: Since[] = [{ kind: 'all' }, { kind: 'latest' }, { kind: 'time', time: now - 25 }, { kind: 'id', id: m1.id }, { kind: 'id', id: due.id }, { kind: 'id', id: 'nosuchid0000' }];
    const replayed = [];
    for (const since of forms) replayed.push(await ids(cache, 'eq', since, since.kind === 'all'));

    // then: the answers are the usual ones, and every read of the log an equality
    assert.deepEqual(replayed, [[m1.id, m2.id, due.id, later.id], [due.id], [m2.id, due.id], [m2.id, due.id], [], [m1.id, m2.id, due.id]]);
    const reads = onLog(commands, from);
    assert.ok(reads.length >= forms.length, JSON.stringify(reads));
    for (const read of reads) {
      assert.equal(Object.keys(read)[0], 'find', JSON.stringify(read));
      // Besides: the oldest batch, which tells whether a replay reaches before what the log holds (its gap).
      assert.ok(byEquality(read.filter as Document) || isOldestBatch(read), JSON.stringify(read));
    }
    assert.deepEqual(errors.errors, []);
  });

  it('count, topics and prune — no aggregate over the log: the one read of it is its oldest batch', async () => {
    // given
    const { cache, commands } = await watchedCache('tallies');
    await cache.add([entry(message('t1')), entry(message('t2', { expires: now - 1 })), entry(message('t1', { time: now + 60 }), false)]);
    const from = commands.length;

    // when
    const figures = [await cache.count(), [...(await cache.topics())].sort(), await cache.prune(now), await cache.count(), [...(await cache.topics())].sort()];

    // then
    assert.deepEqual(figures, [3, ['t1', 't2'], 1, 2, ['t1']]);
    const reads = onLog(commands, from);
    assert.ok(reads.length > 0);
    for (const read of reads) assert.deepEqual({ find: read.find, filter: read.filter, limit: read.limit }, { find: 'messages', filter: {}, limit: 1 });
  });

  it('tallies — 30 commits in a row write them a few times, not once per commit; a count right after is exact', async () => {
    // given
    const { cache, commands } = await watchedCache('tallies-spaced');
    const from = commands.length;

    // when
    for (let i = 0; i < 30; i++) await cache.add([entry(message('spaced'))]);
    const counted = await cache.count();

    // then
    const tallyWrites = commands.slice(from).filter((c) => c.commandName === 'update' && c.command.update === 'cache_tallies');
    assert.equal(counted, 30);
    assert.ok(tallyWrites.length >= 1 && tallyWrites.length <= 6, `${tallyWrites.length} writes of the tallies`);
  });

  it('replay — since=<id> of a message the capped log dropped replays from the oldest message it still holds, with a gap', async () => {
    // given: a client's last message, dropped by the log since, and two later ones held
    const { cache, db } = await watchedCache('dropped-id', 4096);
    const gone = message('back', { time: now - 10 });
    const [at] = (await cache.add([entry(gone)])).seqs;
    for (let i = 0; i < 30; i++) await cache.add([entry(message('filler'))]);
    const later = [message('back'), message('back')];
    for (const m of later) await cache.add([entry(m)]);
    await rollOut(db, at as number);

    // when
    const replayed = await ids(cache, 'back', { kind: 'id', id: gone.id });

    // then
    assert.deepEqual(replayed, later.map((m) => m.id));
    assert.equal(await gapOf(cache, 'back', { kind: 'id', id: gone.id }), true, 'an id the log dropped');
    assert.equal(await gapOf(cache, 'back', { kind: 'time', time: now - 20 }), true, 'a time before the oldest batch held');
    assert.equal(await gapOf(cache, 'back', { kind: 'id', id: (later[0] as Message).id }), false, 'an id the log holds');
    assert.equal(await gapOf(cache, 'back', { kind: 'time', time: now + 1 }), false, 'a time after the oldest batch held');
  });

  it('count — messages the capped log dropped no longer count (estimated by their time against the oldest batch held)', async () => {
    // given: 20 old messages, 5 in between, 20 new (each part expiring in its own minute)
    const { cache, db } = await watchedCache('dropped-count', 4096);
    const part = async (n: number, time: number, expires: number): Promise<number> => {
      let last = 0;
      for (let i = 0; i < n; i++) last = (await cache.add([entry(message('counted', { time, expires }))])).seqs[0] as number;
      return last;
    };
    const lastOld = await part(20, now - 100, now + 1000);
    await part(5, now - 50, now + 2000);
    await part(20, now, now + 3600);
    assert.equal(await cache.count(), 45);

    // when: the log drops the old ones (and at most a few of those in between)
    await rollOut(db, lastOld);

    // then
    const count = await cache.count();
    assert.ok(count >= 20 && count <= 25, `count ${count}`);
  });
});
