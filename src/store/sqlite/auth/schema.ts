import type Database from 'better-sqlite3';

const createSchema = `
  CREATE TABLE IF NOT EXISTS tiers (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    message_limit INTEGER NOT NULL,
    message_expiry_duration INTEGER NOT NULL,
    email_limit INTEGER NOT NULL,
    call_limit INTEGER NOT NULL,
    reservation_limit INTEGER NOT NULL,
    attachment_file_size_limit INTEGER NOT NULL,
    attachment_total_size_limit INTEGER NOT NULL,
    attachment_expiry_duration INTEGER NOT NULL,
    attachment_bandwidth_limit INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    role TEXT NOT NULL,
    tier TEXT REFERENCES tiers (code),
    sync_topic TEXT NOT NULL,
    prefs TEXT NOT NULL DEFAULT '{}',
    provisioned INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS access (
    user TEXT NOT NULL,
    topic TEXT NOT NULL,
    read INTEGER NOT NULL,
    write INTEGER NOT NULL,
    owner TEXT,
    provisioned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user, topic)
  );
  CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    label TEXT NOT NULL,
    expires INTEGER NOT NULL,
    last_access INTEGER NOT NULL,
    last_origin TEXT NOT NULL,
    provisioned INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS idx_tokens_user ON tokens (user);
  CREATE INDEX IF NOT EXISTS idx_users_tier ON users (tier);
`;

export function openAuthSchema(db: Database.Database): void {
  db.exec(createSchema);
}
