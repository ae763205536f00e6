import type Database from 'better-sqlite3';

/**
 * The cache schema. `seq` is the commit order (ntfy's rowid); `json` holds the message
 * exactly as delivered, so a replay writes stored bytes instead of re-encoding them.
 * The columns beside it are only the ones the queries select on. Ids and topics have no
 * index in the file: the cache keeps theirs in memory (memory-indexes.ts).
 */
export const cacheSchemaVersion = 3;

const messagesTable = (name: string): string => `
  CREATE TABLE IF NOT EXISTS ${name} (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    topic TEXT NOT NULL,
    time INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    published INTEGER NOT NULL,
    json TEXT NOT NULL,
    sequence_id TEXT
  );`;

const messagesIndexes = `
  CREATE INDEX IF NOT EXISTS idx_messages_expires ON messages (expires);`;

const createSchema = `${messagesTable('messages')}${messagesIndexes}
  CREATE TABLE IF NOT EXISTS stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
`;

/** Scheduled messages waiting under a sequence id, which a newer publish replaces. */
const createWaitingIndex = `
  CREATE INDEX IF NOT EXISTS idx_messages_waiting_sid ON messages (topic, sequence_id) WHERE published = 0;
`;

/** Each step takes the schema from version `index + 1` to the next. */
const migrations: readonly string[] = [
  // 1 → 2: scheduled messages are replaced by sequence id and released by their job.
  `ALTER TABLE messages ADD COLUMN sequence_id TEXT;
   UPDATE messages SET sequence_id = json_extract(json, '$.sequence_id') WHERE published = 0;
   DROP INDEX IF EXISTS idx_messages_due;`,
  // 2 → 3: the id's UNIQUE index and the topic's index go (SQLite drops a UNIQUE one only
  // with its table). The copy keeps AUTOINCREMENT's counter, so seqs of deleted messages
  // are not handed out again.
  `${messagesTable('messages_v3')}
   INSERT INTO messages_v3 SELECT seq, id, topic, time, expires, published, json, sequence_id FROM messages;
   DELETE FROM sqlite_sequence WHERE name = 'messages_v3';
   INSERT INTO sqlite_sequence (name, seq) SELECT 'messages_v3', seq FROM sqlite_sequence WHERE name = 'messages';
   DROP TABLE messages;
   ALTER TABLE messages_v3 RENAME TO messages;
   ${messagesIndexes}`,
];

export function openCacheSchema(db: Database.Database): void {
  // IMMEDIATE takes the write lock first: a deferred transaction that reads and then writes
  // gets SQLITE_BUSY at once when another process holds the lock (SQLite skips the busy
  // handler there to avoid a deadlock), so a briefly locked file would stop the start.
  const open = db.transaction(() => {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get() !== undefined;
    const version = exists ? (db.prepare('SELECT version FROM schema_version WHERE id = 1').pluck().get() as number | undefined) : undefined;
    if (version !== undefined && version > cacheSchemaVersion) throw new Error(`cache schema version ${version} is newer than this Tocsin (${cacheSchemaVersion})`);
    if (version === undefined) db.exec(createSchema);
    else for (let v = version; v < cacheSchemaVersion; v++) db.exec(migrations[v - 1] as string);
    db.exec(createWaitingIndex);
    db.prepare('INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version').run(cacheSchemaVersion);
  });
  open.immediate();
}
