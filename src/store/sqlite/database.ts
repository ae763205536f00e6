import Database from 'better-sqlite3';

/**
 * Opens the embedded store's one SQLite database (a file, or memory when `file` is empty);
 * the message cache and the scheduler's jobs share it, so a scheduled message and its job
 * live and die with the same file.
 */
export function openDatabase(file: string, startupQueries: string): Database.Database {
  const db = new Database(file === '' ? ':memory:' : file);
  // WAL lets replays read while the single writer commits. synchronous=NORMAL keeps every
  // committed transaction through a process crash (kill -9); only an OS crash can lose the
  // newest commits. `cache-startup-queries: pragma synchronous = full` trades speed for that.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // SQLite's default page cache is 2 MB; with a large cache file the random-id index alone
  // outgrows it and every insert starts reading pages back. Pages are allocated on demand.
  db.pragma('cache_size = -32768');
  if (startupQueries.trim() !== '') db.exec(startupQueries);
  return db;
}
