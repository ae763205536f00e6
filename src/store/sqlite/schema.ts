import type Database from 'better-sqlite3';

/**
 * The cache schema. `seq` is the commit order (ntfy's rowid); `json` holds the message
 * exactly as delivered, so a replay writes stored bytes instead of re-encoding them.
 * The columns beside it are only the ones the queries select on.
 */
const schemaVersion = 1;

const createSchema = `
  CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    time INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    published INTEGER NOT NULL,
    json TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idx_messages_topic_time ON messages (topic, time, seq);
  CREATE INDEX IF NOT EXISTS idx_messages_expires ON messages (expires);
  CREATE INDEX IF NOT EXISTS idx_messages_due ON messages (time) WHERE published = 0;
  CREATE TABLE IF NOT EXISTS stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
`;

export function openSchema(db: Database.Database, startupQueries: string): void {
  // WAL lets replays read while the single writer commits. synchronous=NORMAL keeps every
  // committed transaction through a process crash (kill -9); only an OS crash can lose the
  // newest commits. `cache-startup-queries: pragma synchronous = full` trades speed for that.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // SQLite's default page cache is 2 MB; with a large cache file the random-id index alone
  // outgrows it and every insert starts reading pages back. Pages are allocated on demand.
  db.pragma('cache_size = -32768');
  db.exec(createSchema);
  const row = db.prepare('SELECT version FROM schema_version WHERE id = 1').get() as { version: number } | undefined;
  if (!row) db.prepare('INSERT INTO schema_version (id, version) VALUES (1, ?)').run(schemaVersion);
  else if (row.version > schemaVersion) throw new Error(`cache schema version ${row.version} is newer than this Tocsin (${schemaVersion})`);
  if (startupQueries.trim() !== '') db.exec(startupQueries);
}
