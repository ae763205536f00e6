import { ConfigError } from '../../config/load.js';

/**
 * Runs `open` for a store file; any failure becomes a ConfigError naming the file and what
 * is wrong with it, so `tocsin serve` ends with one line instead of a stack trace.
 */
export async function opening<T>(what: string, file: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw new ConfigError(`${what} ${file} ${describeOpenError(err)}`);
  }
}

/**
 * Why a store file could not be opened, as the end of the one line `tocsin serve` prints
 * ("cache file /x/cache.db is not a SQLite database"). better-sqlite3 reports SQLite's
 * result code in `code`; mkdir reports the errno name there (ENOTDIR, EACCES).
 */
export function describeOpenError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? reasons[code] : undefined;
  return reason ?? `cannot be opened: ${err instanceof Error ? err.message : String(err)}`;
}

const reasons: Record<string, string> = {
  // A file of other bytes, or one whose 100-byte header is cut short or overwritten.
  SQLITE_NOTADB: 'is not a SQLite database (corrupt, or some other kind of file)',
  SQLITE_CORRUPT: 'is corrupt (database disk image is malformed)',
  SQLITE_CANTOPEN: 'cannot be opened (is it a directory, or not readable and writable?)',
  SQLITE_READONLY: 'is read-only',
  SQLITE_PERM: 'cannot be opened: permission denied',
  // busy_timeout already waited 5 s for the lock before this surfaced.
  SQLITE_BUSY: 'is locked by another process',
  SQLITE_LOCKED: 'is locked by another process',
  SQLITE_IOERR_SHORT_READ: 'is corrupt (truncated)',
  ENOTDIR: 'cannot be created: a parent on its path is not a directory',
  EACCES: 'cannot be created: permission denied on its directory',
  EEXIST: 'cannot be created: a parent on its path is not a directory',
};
