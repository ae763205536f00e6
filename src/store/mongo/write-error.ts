import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { StoreWriteError } from '../write-error.js';

/** MongoDB's OutOfDiskSpace; NotWritablePrimary, PrimarySteppedDown and InterruptedDueToReplStateChange (no primary to write to). */
const full = new Set([14031]);
const unwritable = new Set([10107, 189, 11602, 13435]);

/**
 * The port's StoreWriteError for a write MongoDB did not take: the server is unreachable or
 * has no primary (not writable) or its disk is full. Any other error as it is.
 */
export function writeFailure(err: unknown): unknown {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return new StoreWriteError(false, err);
  if (err instanceof MongoServerError && typeof err.code === 'number' && (full.has(err.code) || unwritable.has(err.code))) {
    return new StoreWriteError(full.has(err.code), err);
  }
  return err;
}
