import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MongoServerError, type Db } from 'mongodb';
import { isDuplicateKey } from '../../src/store/mongo/duplicate-key.js';
import { ImportedIds } from '../../src/store/mongo/imported-ids.js';
import { bulkDuplicateKeys, bulkWriteConcernTimeout, writeConcernTimeout } from '../support/driver-errors.js';

/** Imported ids on a database whose message_ids insertMany fails with `failure`. */
function idsFailingWith(failure: Error): ImportedIds {
  const held = { insertMany: () => Promise.reject(failure) };
  const db = { collection: () => held, writeConcern: undefined, readConcern: undefined } as unknown as Db;
  return ImportedIds.open(db);
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

  it('imported ids — an import skips recorded ids but fails on a write concern not satisfied (test double of the driver)', async () => {
    const failure = bulkWriteConcernTimeout(3);
    await assert.rejects(idsFailingWith(failure).recordAbsent(batch), (err) => err === failure);
    assert.deepEqual(await idsFailingWith(bulkDuplicateKeys(3, [0])).recordAbsent(batch), new Set(['a']));
  });
});
