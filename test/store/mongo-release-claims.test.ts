import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from 'mongodb';
import { MongoMessageCache } from '../../src/store/mongo/message-cache.js';
import type { MessageLog } from '../../src/store/mongo/message-log.js';
import { LogShards } from '../../src/store/mongo/log-shards.js';
import type { WaitingMessage } from '../../src/store/mongo/scheduled.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog, rollOut } from '../support/mongo-nodes.js';
import { entry, ids, message, now } from './contracts/cache-messages.js';

/** A log this small is always over its cap: FerretDB's clean-up (rollOut) drops a tenth of it each time. */
const tiny = 4096;

interface Node {
  cache: MongoMessageCache;
  log: MessageLog;
  errors: RecordedLog;
}

/** A node's cache on its own client, on `database` (fresh when absent), with a log capped at `capBytes`. */
async function openNode(database?: string, capBytes = tiny): Promise<Node & { db: Db }> {
  const db = (await connect()).db(database ?? (await ferretDb()).databaseName('claims'));
  const errors = new RecordedLog();
  // One log: the tests read its head and roll out its collection (rollOut).
  const shards = await LogShards.open(db, 1, capBytes);
  const log = shards.logs[0] as MessageLog;
  const cache = await MongoMessageCache.open(db, shards, (err) => errors.error({ err }, 'clean-up'));
  return { cache, log, errors, db };
}

const waitingCopies = (db: Db) => db.collection<WaitingMessage>('scheduled_messages');
const claims = (db: Db) => db.collection<{ _id: string; after: number; expires: number; pos?: number }>('release_claims');

/** Commits `count` one-message batches on topic `filler`: positions for the log to drop. */
async function fill(cache: MongoMessageCache, count: number): Promise<number> {
  let last = 0;
  for (let i = 0; i < count; i++) last = (await cache.add([entry(message('filler'))])).seqs[0] as number;
  return last;
}

describe('MongoDB release claims (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('claims — a waiting copy left behind is not released again once its release left the capped log', async () => {
    // given: a scheduled message released, and the waiting copy a crash before its removal leaves
    const { cache, db } = await openNode();
    const due = message('outlive', { time: now + 60 });
    await cache.add([entry(due, false)]);
    const copy = await waitingCopies(db).findOne({ _id: due.id });
    const [released] = await cache.release([due.id]);
    await waitingCopies(db).insertOne(copy as WaitingMessage);

    // when: the log drops the release's batch (and the message's own)
    await fill(cache, 30);
    await rollOut(db, released?.seq as number);

    // then
    assert.deepEqual(await cache.release([due.id]), [], 'released once');
    assert.equal(await waitingCopies(db).countDocuments({ _id: due.id }), 0, 'the copy is gone');
    assert.deepEqual(await ids(cache, 'outlive', { kind: 'all' }, true), [], 'nor replayed as waiting');
  });

  it('claims — a crash between the claim and its batch: the next release goes on while the log holds what followed, once', async () => {
    // given: the claim a node wrote before dying, no batch
    const { cache, db, log } = await openNode(undefined, 64 << 20);
    const due = message('pending', { time: now + 60 });
    await cache.add([entry(due, false)]);
    await claims(db).insertOne({ _id: due.id, after: log.head, expires: due.expires as number });

    // when: the job runs again, on two nodes at once
    const other = await openNode(db.databaseName, 64 << 20);
    const [here, there] = await Promise.all([cache.release([due.id]), other.cache.release([due.id])]);

    // then
    assert.deepEqual([...here, ...there].map((e) => e.head.id), [due.id]);
    assert.deepEqual(await ids(cache, 'pending', { kind: 'all' }), [due.id]);
    assert.equal((await claims(db).findOne({ _id: due.id }))?.pos, [...here, ...there][0]?.seq, 'settled with its position');
    assert.deepEqual(await cache.release([due.id]), []);
  });

  it('claims — a crash after the batch, before the claim was settled: the log refuses the retry while it holds the batch', async () => {
    // given: a release whose claim a crash left unsettled
    const { cache, db } = await openNode(undefined, 64 << 20);
    const due = message('unsettled', { time: now + 60 });
    await cache.add([entry(due, false)]);
    const copy = await waitingCopies(db).findOne({ _id: due.id });
    await cache.release([due.id]);
    await claims(db).updateOne({ _id: due.id }, { $unset: { pos: '' } });
    await waitingCopies(db).insertOne(copy as WaitingMessage);

    // when
    const again = await cache.release([due.id]);

    // then
    assert.deepEqual(again, []);
    assert.deepEqual(await ids(cache, 'unsettled', { kind: 'all' }), [due.id]);
  });

  it('claims — a pending claim whose following positions the log dropped is not released (at most once), and says so', async () => {
    // given: a claim left pending, then more commits than the log holds
    const { cache, db, log, errors } = await openNode();
    const due = message('unknowable', { time: now + 60 });
    await cache.add([entry(due, false)]);
    const after = log.head;
    await claims(db).insertOne({ _id: due.id, after, expires: due.expires as number });
    await fill(cache, 30);
    await rollOut(db, after + 1);

    // when
    const released = await cache.release([due.id]);

    // then
    assert.deepEqual(released, []);
    assert.deepEqual(errors.errors.map((e) => String((e.details as { err: Error }).err.message)), [
      `message ${due.id}: its claim was left pending (a crash?) and the log no longer holds what followed it; not released, so it is not released twice`,
    ]);
  });

  it('claims — a replacement claims durably too: a delete outlives the log, and the copy it leaves is not released', async () => {
    // given: a scheduled message deleted by sequence id, the copy a crash left, the log rolled past both
    const { cache, db } = await openNode();
    const due = message('replaced', { time: now + 60, sequence_id: 'seq1' });
    await cache.add([entry(due, false)]);
    const copy = await waitingCopies(db).findOne({ _id: due.id });
    const { replaced } = await cache.add([entry(message('replaced', { event: 'message_delete', sequence_id: 'seq1' }))]);
    assert.deepEqual(replaced, [due.id]);
    await waitingCopies(db).insertOne(copy as WaitingMessage);
    await rollOut(db, await fill(cache, 30) - 20);

    // when
    const released = await cache.release([due.id]);

    // then
    assert.deepEqual(released, []);
  });

  it('claims — prune forgets the claims of expired messages, and the copies a crash left of them first', async () => {
    // given: a released message that expired, its copy left behind
    const { cache, db } = await openNode(undefined, 64 << 20);
    const due = message('expired', { time: now - 120, expires: now - 60 });
    await cache.add([entry(due, false)]);
    const copy = await waitingCopies(db).findOne({ _id: due.id });
    await cache.release([due.id]);
    await waitingCopies(db).insertOne(copy as WaitingMessage);

    // when
    await cache.prune(now);

    // then
    assert.equal(await claims(db).countDocuments({}), 0);
    assert.equal(await waitingCopies(db).countDocuments({}), 0);
    assert.deepEqual(await cache.release([due.id]), []);
  });
});
