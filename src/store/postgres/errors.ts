import { StoreUnavailableError } from '../write-error.js';

/**
 * What says the server did not answer: a connection refused, reset or timed out, no socket
 * where the URL points, PostgreSQL's connection exceptions (class 08), a server shutting
 * down or restarting (57P01–57P03), no connection slot left (53300).
 */
const notAnswered = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOENT', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);

function unanswered(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return notAnswered.has(code) || code.startsWith('08');
  // node-postgres's own, without a code: a connection lost mid-query, a pool that waited in vain.
  return /^Connection terminated|^timeout exceeded when trying to connect/.test(err.message);
}

/** The port's StoreUnavailableError for a read the server did not answer; any other error as it is. */
export function readFailure(err: unknown): unknown {
  return unanswered(err) ? new StoreUnavailableError(err) : err;
}
