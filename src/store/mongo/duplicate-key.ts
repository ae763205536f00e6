import { MongoBulkWriteError, MongoServerError, type WriteError } from 'mongodb';

const duplicateKey = 11000;

/**
 * Whether `err` refused an insert for a duplicate key: the insertOne, or every failed
 * document of an insertMany. An insertMany error with no failed document is no refusal:
 * its write concern was not satisfied (written, maybe rolled back later) or the driver
 * lost the server mid-way; nothing says a key was held.
 */
export function isDuplicateKey(err: unknown): boolean {
  if (err instanceof MongoBulkWriteError) {
    const failed = failedWrites(err);
    return failed.length > 0 && failed.every((e) => e.code === duplicateKey);
  }
  return err instanceof MongoServerError && err.code === duplicateKey;
}

/** The documents an insertMany could not insert. */
export function failedWrites(err: MongoBulkWriteError): WriteError[] {
  return [err.writeErrors].flat();
}
