import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MongoNetworkError, MongoServerError } from 'mongodb';
import { MessageLog, type LogBatch } from '../../src/store/mongo/message-log.js';
import type { LostRange } from '../../src/store/live-feed.js';
import { LogTail } from '../../src/store/mongo/message-log-tail.js';
import { HeadsBoard, LogHeads } from '../../src/store/mongo/log-heads.js';
import { writeConcernTimeout } from '../support/driver-errors.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb } from '../support/mongo-nodes.js';
import { ScriptedLog } from '../support/scripted-log.js';

const batch = (_id: number, last: number, by: string, after?: string): LogBatch => ({ _id, last, by, ...(after !== undefined && { after }), events: [] });

/** Runs a tail on `log` from `start` until it handed on position `until`; answers what it handed on and reported lost. */
async function follow(log: ScriptedLog, start: LogBatch, until: number, rewrite?: (handed: number) => void): Promise<{ handed: number[]; lost: LostRange[] }> {
  const handed: number[] = [];
  const lost: LostRange[] = [];
  let tail: LogTail | undefined;
  await new Promise<void>((resolve) => {
    tail = new LogTail(log, start, {
      batch: (b) => {
        handed.push(b._id);
        rewrite?.(b._id);
        if (b.last >= until) resolve();
      },
      lost: (range) => lost.push(range),
      error: (err) => assert.fail(String(err)),
    }, { pollMs: 1, idlePollMs: 2, checkMs: 5, retryMs: 1 });
  });
  tail?.stop();
  await tail?.done;
  return { handed, lost };
}

describe('MongoDB log — batch identity (test double of the driver: FerretDB cannot roll back)', () => {
  it('tail — a batch whose predecessor is not the one handed on reports the rewritten positions lost, and is handed on', async () => {
    // given: a tail that handed on 1 and 2-3; a failover then put b.1 at 2-3 and c.1 after it
    const log = new ScriptedLog([batch(1, 1, 'a.1'), batch(2, 3, 'a.2', 'a.1')]);
    const rewrite = (handed: number): void => {
      if (handed === 2) log.put(batch(2, 3, 'b.1', 'a.1'), batch(4, 4, 'c.1', 'b.1'));
    };

    // when
    const { handed, lost } = await follow(log, batch(1, 1, 'a.1'), 4, rewrite);

    // then
    assert.deepEqual(handed, [2, 4]);
    assert.deepEqual(lost, [{ from: 2, to: 3 }]);
  });

  it('tail — a batch spanning the position after the tail\'s (a rewritten chain) reports everything up to the newest lost and goes on after it', async () => {
    // given: a tail that handed on 2-3 and 4; a failover then put b.1 at 4-5 and b.2 at 6
    const log = new ScriptedLog([batch(1, 1, 'a.1'), batch(2, 3, 'a.2', 'a.1'), batch(4, 4, 'a.3', 'a.2')]);
    const rewrite = (handed: number): void => {
      if (handed === 4) log.put(batch(4, 5, 'b.1', 'a.2'), batch(6, 6, 'b.2', 'b.1'));
      if (handed === 4) setTimeout(() => log.put(batch(7, 7, 'b.3', 'b.2')), 200);
    };

    // when
    const { handed, lost } = await follow(log, batch(1, 1, 'a.1'), 7, rewrite);

    // then
    assert.deepEqual(handed, [2, 4, 7]);
    assert.deepEqual(lost, [{ from: 4, to: 6 }]);
  });

  it('tail — positions the capped log dropped before the tail read them are reported lost; it goes on from the oldest batch', async () => {
    // given: a tail at 1 and a log that now starts at 5
    const log = new ScriptedLog([batch(5, 6, 'a.5', 'a.4'), batch(7, 7, 'a.6', 'a.5')]);

    // when
    const { handed, lost } = await follow(log, batch(1, 1, 'a.1'), 7);

    // then
    assert.deepEqual(handed, [5, 7]);
    assert.deepEqual(lost, [{ from: 2, to: 4 }]);
  });

  it('tail — a batch no writer\'s head names (its head write failed, or its writer died before it) is handed on within a check', async () => {
    // given: a tail that read everything, heads that stop at 1, then batches 2-3 and 4 after it
    const log = new ScriptedLog([batch(1, 1, 'a.1')]);
    log.newestHint = () => Promise.resolve(batch(1, 1, 'a.1'));
    setTimeout(() => log.put(batch(2, 3, 'a.2', 'a.1'), batch(4, 4, 'b.1', 'a.2')), 30);

    // when
    const { handed, lost } = await follow(log, batch(1, 1, 'a.1'), 4);

    // then
    assert.deepEqual(handed, [2, 4]);
    assert.deepEqual(lost, []);
  });

  it('tail — the same chain read again is handed on once, with nothing lost', async () => {
    const log = new ScriptedLog([batch(1, 1, 'a.1'), batch(2, 3, 'a.2', 'a.1'), batch(4, 4, 'b.1', 'a.2'), batch(5, 9, 'a.3', 'b.1')]);
    const { handed, lost } = await follow(log, batch(1, 1, 'a.1'), 9);
    assert.deepEqual(handed, [2, 4, 5]);
    assert.deepEqual(lost, []);
  });
});

describe('MongoDB log — batch identity (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('log — every batch is written with an identity of its own, read back with it', async () => {
    const db = (await connect()).db((await ferretDb()).databaseName('identity'));
    const log = await MessageLog.open(db, 1 << 20);
    const first = await log.append({ events: [] });
    const second = await log.append({ events: [] });
    const stored = await log.batches.find({ _id: { $in: [first._id, second._id] } }).sort({ _id: 1 }).toArray();
    assert.deepEqual(stored.map((b) => b.by), [first.by, second.by]);
    assert.match(first.by ?? '', /^[\w-]{8}\.\d+$/);
    assert.notEqual(first.by, second.by);
  });

  it('log — an insert whose answer was lost and whose retry FerretDB refused as a duplicate of itself is appended once (a stubbed insertOne stands in for the driver\'s retry)', async () => {
    // given: the first insert lands, then its answer is lost and the retry refused
    const db = (await connect()).db((await ferretDb()).databaseName('retried'));
    const log = await MessageLog.open(db, 1 << 20);
    const insertOne = log.batches.insertOne.bind(log.batches);
    log.batches.insertOne = (async (doc: LogBatch) => {
      log.batches.insertOne = insertOne;
      await insertOne(doc);
      throw new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' });
    }) as typeof log.batches.insertOne;

    // when
    const appended = await log.append({ events: [] });

    // then: one batch, where it was first written
    const next = await log.append({ events: [] });
    assert.equal(next._id, appended.last + 1);
    assert.equal(await db.collection('messages').countDocuments({ by: appended.by }), 1);
  });

  it('heads — a head write that failed is written again (a stubbed replaceOne stands in for a cut connection)', async () => {
    // given: a head collection whose first write fails
    const db = (await connect()).db((await ferretDb()).databaseName('heads-retried'));
    const board = await HeadsBoard.open(db);
    const heads = new LogHeads(board, 'w', 0);
    const stored = board.heads;
    const replaceOne = stored.replaceOne.bind(stored);
    stored.replaceOne = (() => {
      stored.replaceOne = replaceOne;
      return Promise.reject(new MongoNetworkError('connection cut'));
    }) as typeof stored.replaceOne;

    // when
    heads.note(batch(5, 7, 'w.3'));

    // then: written within the retry pause
    const deadline = Date.now() + 2000;
    while (!(await heads.highest()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await heads.highest(), { _id: 5, last: 7, by: 'w.3' });
  });

  it('heads — while every peer is linked, a head is written at most every 250 ms, the newest noted; else after each write', async () => {
    const writes: Record<string, number[]> = {};
    for (const all of [true, false]) {
      // given: a head collection that counts its writes
      const db = (await connect()).db((await ferretDb()).databaseName(`heads-spaced-${all}`));
      const board = await HeadsBoard.open(db);
      const heads = new LogHeads(board, 'w', 0, { linked: 2, all });
      const stored = board.heads;
      const replaceOne = stored.replaceOne.bind(stored);
      const written: number[] = (writes[String(all)] = []);
      stored.replaceOne = ((filter, head, options) => {
        written.push((head as { last: number }).last);
        return replaceOne(filter, head, options);
      }) as typeof stored.replaceOne;

      // when: 20 batches noted over ~200 ms, then a pause
      for (let i = 1; i <= 20; i++) {
        heads.note(batch(i, i, `w.${i}`));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 400));

      // then: the newest is written either way
      assert.deepEqual(await heads.highest(), { _id: 20, last: 20, by: 'w.20' });
    }
    assert.ok((writes.true as number[]).length <= 3, `linked: ${JSON.stringify(writes.true)}`);
    assert.equal(writes.true?.[0], 1);
    assert.ok((writes.false as number[]).length >= 10, `not linked: ${JSON.stringify(writes.false)}`);
  });

  it('log — after a write concern error the next append starts at the chain head as it is, below what the node knew (a delete stands in for the rollback, a stubbed insertOne for the driver\'s answer)', async () => {
    // given: a node that wrote a batch a failover then rolled back, and whose next insert failed
    const db = (await connect()).db((await ferretDb()).databaseName('rollback'));
    const log = await MessageLog.open(db, 1 << 20);
    const kept = await log.append({ events: [] });
    const rolledBack = await log.append({ events: [] });
    await db.collection('messages').deleteOne({ _id: rolledBack._id } as object);
    const insertOne = log.batches.insertOne.bind(log.batches);
    log.batches.insertOne = () => Promise.reject(writeConcernTimeout());
    await assert.rejects(log.append({ events: [] }), (err) => err instanceof Error && err.name === 'MongoWriteConcernError');
    log.batches.insertOne = insertOne;

    // when
    const next = await log.append({ events: [] });

    // then: no gap where the rolled-back batch was
    assert.equal(next._id, kept.last + 1);
  });

  it('log — several drafts go in one ordered insert, each after the one before, and are heard of in order', async () => {
    const db = (await connect()).db((await ferretDb()).databaseName('append-all'));
    const log = await MessageLog.open(db, 1 << 20);
    const inserts: number[] = [];
    const insertMany = log.batches.insertMany.bind(log.batches);
    log.batches.insertMany = ((docs: LogBatch[], options) => {
      inserts.push(docs.length);
      return insertMany(docs, options);
    }) as typeof log.batches.insertMany;
    const heard: number[] = [];

    const batches = await log.appendAll([drafted('a', 3), drafted('b', 2), drafted('c', 1)], (b) => heard.push(b._id));

    assert.deepEqual(inserts, [3]);
    assert.deepEqual(batches.map((b) => b.last - b._id + 1), [3, 2, 1]);
    assert.deepEqual(batches.slice(1).map((b) => b.after), [batches[0]!.by, batches[1]!.by]);
    assert.deepEqual(heard, batches.map((b) => b._id));
    assert.equal(batches[1]!._id, batches[0]!.last + 1);
    assert.equal(log.head, batches[2]!.last);
  });

  it('log — a writer that took a position among several drafts keeps it: those before stand, the rest go after it, each once', async () => {
    // given: a batch of another writer where this process's second draft would go (inserted
    // directly, standing in for a writer that learnt the first draft's end in between)
    const db = (await connect()).db((await ferretDb()).databaseName('append-all-raced'));
    const log = await MessageLog.open(db, 1 << 20);
    const start = log.head + 1;
    await log.batches.insertOne({ ...batch(start + 2, start + 2, 'other.1'), events: [] });

    // when
    const heard: string[] = [];
    const batches = await log.appendAll([drafted('a', 2), drafted('b', 1)], (b) => heard.push(b.events[0]!.id));

    // then: a where it was chained, the other writer's batch, then b after it; each once
    assert.deepEqual(batches.map((b) => [b._id, b.events[0]!.id]), [[start, 'a0'], [start + 3, 'b0']]);
    assert.deepEqual(heard, ['a0', 'b0']);
    assert.equal(await log.batches.countDocuments({ 'events.id': 'b0' }), 1);
  });

  it('log — several drafts whose insert the driver retried after a lost answer, refused by FerretDB as held, are appended once (a stubbed insertMany stands in for the retry)', async () => {
    const db = (await connect()).db((await ferretDb()).databaseName('append-all-retried'));
    const log = await MessageLog.open(db, 1 << 20);
    const insertMany = log.batches.insertMany.bind(log.batches);
    log.batches.insertMany = (async (docs: LogBatch[], options) => {
      log.batches.insertMany = insertMany;
      await insertMany(docs, options);
      return insertMany(docs, options);
    }) as typeof log.batches.insertMany;

    const batches = await log.appendAll([drafted('a', 1), drafted('b', 1)], () => undefined);

    assert.deepEqual(batches.map((b) => b.events[0]!.id), ['a0', 'b0']);
    assert.equal(await log.batches.countDocuments({ 'events.id': { $in: ['a0', 'b0'] } }), 2);
    assert.equal((await log.append({ events: [] }))._id, batches[1]!.last + 1);
  });
});

/** A draft of `count` stored events on topic `name`, ids `${name}0`…. */
function drafted(name: string, count: number): Omit<LogBatch, '_id' | 'last' | 'by' | 'after' | 'claim'> {
  const events = Array.from({ length: count }, (_, i) => ({ id: `${name}${i}`, topic: name, time: 1, expires: 0, json: '{}', kind: 'stored' as const }));
  return { topics: [name], ids: events.map((e) => e.id), events };
}
