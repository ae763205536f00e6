import { StoreUnavailableError, StoreWriteError } from '../write-error.js';

/**
 * What says the server did not answer: a connection refused, reset or timed out, no socket
 * where the URL points, PostgreSQL's connection exceptions (class 08), a server shutting
 * down or restarting (57P01–57P03), no connection slot left (53300).
 */
const notAnswered = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOENT', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);

export function unanswered(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return notAnswered.has(code) || code.startsWith('08');
  // node-postgres's own, without a code: a connection lost mid-query, a query or a pool that waited in vain.
  return /^Connection terminated|^Query read timeout|^timeout exceeded when trying to connect/.test(err.message);
}

/** PostgreSQL's disk_full (53100) and read_only_sql_transaction (25006: a standby, or a primary set read-only). */
const full = '53100';
const readOnly = '25006';

/**
 * The port's StoreWriteError for a write PostgreSQL did not take: not answered, a standby
 * or read-only server (not writable), or a full disk. Any other error as it is.
 */
export function writeFailure(err: unknown): unknown {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  if (code === full || code === readOnly) return new StoreWriteError(code === full, err);
  return unanswered(err) ? new StoreWriteError(false, err) : err;
}

/** The port's StoreUnavailableError for a read the server did not answer; any other error as it is. */
export function readFailure(err: unknown): unknown {
  return unanswered(err) ? new StoreUnavailableError(err) : err;
}
