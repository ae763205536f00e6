import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MongoServerError, type Db } from 'mongodb';
import { isDuplicateKey } from '../../src/store/mongo/duplicate-key.js';
import { DuplicateIdError, MessageIds } from '../../src/store/mongo/message-ids.js';
import { bulkDuplicateKeys, bulkWriteConcernTimeout, writeConcernTimeout } from '../support/driver-errors.js';

/** A database whose message_ids insertMany fails with `failure`, recording the deletes sent after it; any id asked for is held by another reservation. */
function idsFailingWith(failure: Error): { ids: MessageIds; deletes: unknown[] } {
  const deletes: unknown[] = [];
  const held = {
    insertMany: () => Promise.reject(failure),
    findOne: (filter: { _id: string }) => Promise.resolve({ _id: filter._id, by: 'another reservation' }),
    deleteMany: (filter: unknown) => {
      deletes.push(filter);
      return Promise.resolve({ deletedCount: 0 });
    },
  };
  const db = { collection: () => held, writeConcern: undefined, readConcern: undefined } as unknown as Db;
  return { ids: MessageIds.open(db), deletes };
}

const batch = [
  { id: 'a', expires: 1 },
  { id: 'b', expires: 1 },
  { id: 'c', expires: 1 },
];

describe('MongoDB duplicate keys (errors built as mongodb 6.22 builds them)', () => {
  it('duplicate key — an insertMany whose every failed document hit a held key is one', () => {
    assert.equal(isDuplicateKey(bulkDuplicateKeys(3, [0, 2])), true);
  });

  it('duplicate key — an insertOne refused for a held key is one', () => {
    assert.equal(isDuplicateKey(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' })), true);
  });

  it('duplicate key — a write concern not satisfied is none, with or without write errors listed', () => {
    assert.equal(isDuplicateKey(bulkWriteConcernTimeout(3)), false);
    assert.equal(isDuplicateKey(writeConcernTimeout()), false);
    assert.equal(isDuplicateKey(new MongoServerError({ code: 64, errmsg: 'waiting for replication timed out' })), false);
  });

  it('message ids — a reservation whose write concern failed frees nothing and throws that failure, not DuplicateIdError([]) (test double of the driver)', async () => {
    const failure = bulkWriteConcernTimeout(3);
    const { ids, deletes } = idsFailingWith(failure);
    await assert.rejects(ids.reserve(batch), (err) => err === failure);
    assert.deepEqual(deletes, []);
  });

  it('message ids — a reservation refused for held ids frees the others and names the held ones (test double of the driver)', async () => {
    const { ids, deletes } = idsFailingWith(bulkDuplicateKeys(3, [1]));
    await assert.rejects(ids.reserve(batch), (err) => err instanceof DuplicateIdError && err.ids.join() === 'b');
    assert.deepEqual(deletes, [{ _id: { $in: ['a', 'c'] } }]);
  });

  it('message ids — an import skips held ids but fails on a write concern not satisfied (test double of the driver)', async () => {
    const failure = bulkWriteConcernTimeout(3);
    await assert.rejects(idsFailingWith(failure).ids.reserveAbsent(batch), (err) => err === failure);
    assert.deepEqual(await idsFailingWith(bulkDuplicateKeys(3, [0])).ids.reserveAbsent(batch), new Set(['a']));
  });
});
