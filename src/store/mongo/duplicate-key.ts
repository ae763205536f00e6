import { MongoBulkWriteError, MongoServerError, type WriteError } from 'mongodb';

const duplicateKey = 11000;

/** Whether `err` refused an insert for a duplicate key: the insertOne, or every failed document of an insertMany. */
export function isDuplicateKey(err: unknown): boolean {
  if (err instanceof MongoBulkWriteError) return failedWrites(err).every((e) => e.code === duplicateKey);
  return err instanceof MongoServerError && err.code === duplicateKey;
}

/** The documents an insertMany could not insert. */
export function failedWrites(err: MongoBulkWriteError): WriteError[] {
  return [err.writeErrors].flat();
}
