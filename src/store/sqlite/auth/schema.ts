import type Database from 'better-sqlite3';

/**
 * Version 1, the tables as the auth-file had them before it carried a version. Every
 * statement is IF NOT EXISTS, so the step that brings a file to version 1 creates them in
 * a new file and leaves a file made before versioning exactly as it is.
 */
const version1 = `
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

/**
 * Version 2: users' verified phone numbers (issue 21), ntfy's user_phone. The primary key
 * orders a user's numbers by their text, as ntfy's query returns them.
 */
const version2 = `
  CREATE TABLE phones (
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    number TEXT NOT NULL,
    PRIMARY KEY (user, number)
  );
`;

/**
 * Version 3: users' e-mail addresses and magic links (ntfy 2.25). At most one primary
 * address per user, and an address is the primary of one account at most (partial unique
 * indexes). A link is looked up by its selector; its secret half is kept only as a hash.
 */
const version3 = `
  CREATE TABLE emails (
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    address TEXT NOT NULL,
    is_primary INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user, address)
  );
  CREATE UNIQUE INDEX idx_emails_primary_user ON emails (user) WHERE is_primary = 1;
  CREATE UNIQUE INDEX idx_emails_primary_address ON emails (address) WHERE is_primary = 1;
  CREATE TABLE magic_links (
    selector TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    email TEXT NOT NULL,
    expires INTEGER NOT NULL
  );
  CREATE INDEX idx_magic_links_user ON magic_links (user, kind, email);
  CREATE INDEX idx_magic_links_expires ON magic_links (expires);
`;

/**
 * Version 4: the scopes of topic-scoped tokens, as JSON (model/token-scope.ts); an unscoped
 * token has no row. A table of its own rather than a column, so `tokens` stays as version 1 made it.
 */
const version4 = `
  CREATE TABLE token_scopes (
    token TEXT PRIMARY KEY REFERENCES tokens (token) ON DELETE CASCADE ON UPDATE CASCADE,
    scopes TEXT NOT NULL
  );
`;

/**
 * Version 5: named groups (issue 38) and their members. A membership goes with its group
 * or its user by the foreign keys' cascade; `source` says who made it (auth-store.ts
 * MembershipSource). Keyed by user first: the permission query asks a user's groups.
 */
const version5 = `
  CREATE TABLE groups (
    name TEXT PRIMARY KEY,
    provisioned INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE group_members (
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    grp TEXT NOT NULL REFERENCES groups (name) ON DELETE CASCADE,
    source TEXT NOT NULL,
    PRIMARY KEY (user, grp)
  );
  CREATE INDEX idx_group_members_grp ON group_members (grp);
`;

/** Step `i` (SQL) takes the file from version `i` to `i + 1`; version 0 is a new or unversioned file. */
const migrations: readonly string[] = [version1, version2, version3, version4, version5];

export const authSchemaVersion = migrations.length;

/**
 * Brings the auth-file to the latest version, the steps in order, all in one transaction.
 * The version is SQLite's `user_version` in the file header rather than a table, so the
 * tables of version 1 stay exactly those files made before versioning have; such a file
 * reads 0, as a new one does. A newer version than this Tocsin knows stops the open: its
 * tables may mean something these queries would misread or break.
 */
export function openAuthSchema(db: Database.Database): void {
  // IMMEDIATE takes the write lock first, as the cache's schema step does: a deferred
  // read-then-write transaction gets SQLITE_BUSY at once while another process writes,
  // where this one waits out busy_timeout.
  const open = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > authSchemaVersion) throw new Error(`auth-file schema version ${version} is newer than this Tocsin (${authSchemaVersion})`);
    for (const step of migrations.slice(version)) db.exec(step);
    // Written only when it moves: a write on every open would make every other connection
    // (the server, while the CLI opens the file) forget its remembered reads.
    if (version !== authSchemaVersion) db.pragma(`user_version = ${authSchemaVersion}`);
  });
  open.immediate();
}
