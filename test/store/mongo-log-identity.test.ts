import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from 'mongodb';
import { MessageLog, type LogBatch } from '../../src/store/mongo/message-log.js';
import { LogTail, type LostRange } from '../../src/store/mongo/message-log-tail.js';
import { writeConcernTimeout } from '../support/driver-errors.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb } from '../support/mongo-nodes.js';

const batch = (_id: number, last: number, by: string): LogBatch => ({ _id, last, by, events: [] });

/** A Db whose tailable cursors answer `script`, one cursor each, then nothing. */
function scriptedDb(script: LogBatch[][]): Db {
  const cursorOf = (docs: LogBatch[]): object => {
    const cursor = {
      setBatchSize: () => cursor,
      setMaxTimeMS: () => cursor,
      close: () => Promise.resolve(),
      async *[Symbol.asyncIterator]() {
        yield* docs;
      },
    };
    return cursor;
  };
  return { runCursorCommand: () => cursorOf(script.shift() ?? []) } as unknown as Db;
}

const noGaps = { batches: { collectionName: 'messages' }, seen: () => undefined } as unknown as MessageLog;

describe('MongoDB log — batch identity (test double of the driver: FerretDB cannot roll back)', () => {
  it('tail — a different batch at a position already handed on is a lost range, the same one a repeat', async () => {
    // given: a tail that handed on 2-3 and 4, then reads 4-5 written by another writer (4 was rolled back)
    const handed: number[] = [];
    const lost: LostRange[] = [];
    const script = [
      [batch(1, 1, 'a.1'), batch(2, 3, 'a.2'), batch(4, 4, 'a.3')],
      [batch(2, 3, 'a.2'), batch(4, 5, 'b.1'), batch(6, 6, 'b.2')],
    ];
    let tail: LogTail | undefined;
    const done = new Promise<void>((resolve) => {
      tail = new LogTail(scriptedDb(script), noGaps, batch(1, 1, 'a.1'), {
        batch: (b) => {
          handed.push(b._id);
          if (b._id === 6) resolve();
        },
        lost: (range) => lost.push(range),
        error: (err) => assert.fail(String(err)),
      }, { awaitMs: 10, reopenAfter: 100, retryMs: 1 });
    });

    // when
    await done;
    tail?.stop();

    // then
    assert.deepEqual(handed, [2, 4, 6]);
    assert.deepEqual(lost, [{ from: 4, to: 5 }]);
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
});
