import { MongoBulkWriteError, MongoError, MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoWriteConcernError } from 'mongodb';
import { StoreUnavailableError, StoreWriteError } from '../write-error.js';

/** MongoDB's OutOfDiskSpace; NotWritablePrimary, PrimarySteppedDown and InterruptedDueToReplStateChange (no primary to write to). */
const full = new Set([14031]);
const unwritable = new Set([10107, 189, 11602, 13435]);
/** Socket errors of a connection that is gone. */
const socketGone = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);

/**
 * The port's StoreWriteError for a write MongoDB did not take, or did not acknowledge
 * within the bounds of concerns.ts: the server is unreachable, has no primary or did not
 * answer in time (not writable), or its disk is full. Any other error as it is.
 *
 * Not acknowledged, not refused: a write-concern error (a majority did not confirm within
 * wtimeoutMS) leaves the write on the primary, where a failover may keep or roll it back,
 * and an insertMany cut by the network throws a MongoBulkWriteError with no write errors.
 * Either way the client is told it was not stored (503), which is true of what it may
 * count on.
 */
export function writeFailure(err: unknown): unknown {
  if (notAnswered(err)) return new StoreWriteError(false, err);
  if (err instanceof MongoServerError && typeof err.code === 'number' && (full.has(err.code) || unwritable.has(err.code))) {
    return new StoreWriteError(full.has(err.code), err);
  }
  return err;
}

/** The port's StoreUnavailableError for a read the server did not answer (see notAnswered); any other error as it is. */
export function readFailure(err: unknown): unknown {
  return notAnswered(err) ? new StoreUnavailableError(err) : err;
}

function notAnswered(err: unknown): boolean {
  return (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoWriteConcernError ||
    (err instanceof MongoBulkWriteError && [err.writeErrors].flat().length === 0) ||
    // The pool's wait for a connection (waitQueueTimeoutMS); its class is not exported.
    (err instanceof MongoError && err.name === 'MongoWaitQueueTimeoutError') ||
    // A command written to a socket the server had just closed: mongodb 6.22 throws the
    // socket's own error, not a MongoNetworkError (seen with connections cut mid-commit).
    (err instanceof Error && !(err instanceof MongoError) && socketGone.has((err as NodeJS.ErrnoException).code ?? ''))
  );
}
