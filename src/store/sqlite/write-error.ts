import { StoreWriteError } from '../write-error.js';

/**
 * SQLite's result codes for a write the file cannot take (https://sqlite.org/rescode.html):
 * SQLITE_FULL also covers ENOSPC and `max_page_count`; the IOERR family covers EIO and
 * friends; READONLY a file or filesystem gone read-only. The transaction was rolled back.
 */
const unwritable = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|CORRUPT|NOTADB)/;

/** The port's StoreWriteError for SQLite's write failures; any other error as it is. */
export function writeFailure(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !unwritable.test(code)) return err;
  return new StoreWriteError(code === 'SQLITE_FULL', err);
}
