import { createRequire } from 'node:module';
import { MongoBulkWriteError, MongoWriteConcernError, type BulkWriteResult, type WriteError } from 'mongodb';

// The classes the driver builds its bulk errors from, which its index does not export at run time.
const { BulkWriteResult: BulkResult, WriteError: BulkWriteError } = createRequire(import.meta.url)('mongodb/lib/bulk/common.js') as {
  BulkWriteResult: typeof BulkWriteResult;
  WriteError: typeof WriteError;
};

/**
 * The errors mongodb 6.22 throws for what FerretDB never answers (a write concern not
 * satisfied in time), built as the driver builds them (lib/bulk/common.js,
 * lib/error.js), for the tests that stand in for a replica set.
 */

const timedOut = { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } };

/** An insertOne, updateOne… whose write concern was not satisfied: the driver's MongoWriteConcernError. */
export function writeConcernTimeout(): MongoWriteConcernError {
  return new MongoWriteConcernError({ ok: 1, writeConcernError: timedOut });
}

/** An insertMany whose documents were written but whose write concern failed: no write errors (executeCommands). */
export function bulkWriteConcernTimeout(inserted: number): MongoBulkWriteError {
  return new MongoBulkWriteError({ message: timedOut.errmsg, code: timedOut.code }, result(inserted, []));
}

/** An unordered insertMany of which the documents at `indexes` collided with held `_id`s. */
export function bulkDuplicateKeys(total: number, indexes: number[]): MongoBulkWriteError {
  const writeErrors = indexes.map((index) => new BulkWriteError({ index, code: 11000, errmsg: 'E11000 duplicate key error', errInfo: {}, op: {} }));
  return new MongoBulkWriteError({ message: 'E11000 duplicate key error', code: 11000, writeErrors }, result(total - indexes.length, writeErrors));
}

function result(inserted: number, writeErrors: WriteError[]): BulkWriteResult {
  const bulk = { ok: 1, writeErrors, writeConcernErrors: [], insertedIds: [], nInserted: inserted, nUpserted: 0, nMatched: 0, nModified: 0, nRemoved: 0, upserted: [] };
  // The constructor is internal to the driver: called as the driver calls it.
  return Reflect.construct(BulkResult, [bulk, false]) as BulkWriteResult;
}
