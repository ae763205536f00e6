import Database from 'better-sqlite3';
import { everyone, randomName, readWrite, type Grant, type Permission, type Role, type User } from '../../model/access.js';
import type { Prefs, Reservation, Tier } from '../../model/account.js';
import { AlreadyExists, InUse, NotFound, type AuthStore, type Token } from '../auth-store.js';

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
    created INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS access (
    user TEXT NOT NULL,
    topic TEXT NOT NULL,
    read INTEGER NOT NULL,
    write INTEGER NOT NULL,
    owner TEXT,
    PRIMARY KEY (user, topic)
  );
  CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    user TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    label TEXT NOT NULL,
    expires INTEGER NOT NULL,
    last_access INTEGER NOT NULL,
    last_origin TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idx_tokens_user ON tokens (user);
  CREATE INDEX IF NOT EXISTS idx_users_tier ON users (tier);
`;

interface UserRow {
  name: string;
  hash: string;
  role: Role;
  sync_topic: string;
  prefs: string;
  tier: string | null;
}

interface TierRow {
  code: string;
  name: string;
  message_limit: number;
  message_expiry_duration: number;
  email_limit: number;
  call_limit: number;
  reservation_limit: number;
  attachment_file_size_limit: number;
  attachment_total_size_limit: number;
  attachment_expiry_duration: number;
  attachment_bandwidth_limit: number;
}

const selectUser = 'SELECT name, hash, role, sync_topic, prefs, tier FROM users';
const selectToken = 'SELECT token, label, expires, last_access AS lastAccess, last_origin AS lastOrigin FROM tokens';

/**
 * The auth-file: its own SQLite database, apart from the cache, so it can be kept and
 * backed up on its own. Access patterns are stored as written (`alerts*`) and matched
 * with SQLite's case-insensitive LIKE after `*` → `%` and `_` is escaped, as ntfy does.
 */
export class SqliteAuthStore implements AuthStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(createSchema);
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  async user(name: string): Promise<User | undefined> {
    return this.toUser(this.sql(`${selectUser} WHERE name = ?`).get(name) as UserRow | undefined);
  }

  async userByToken(token: string): Promise<User | undefined> {
    const row = this.sql(
      `${selectUser} WHERE name = (SELECT user FROM tokens WHERE token = ? AND (expires = 0 OR expires > ?))`,
    ).get(token, Math.floor(Date.now() / 1000)) as UserRow | undefined;
    return this.toUser(row);
  }

  async touchToken(token: string, when: number, origin: string): Promise<void> {
    this.sql('UPDATE tokens SET last_access = ?, last_origin = ? WHERE token = ?').run(when, origin, token);
  }

  async permission(username: string, topic: string): Promise<Permission | undefined> {
    const row = this.sql(
      `SELECT read, write FROM access
       WHERE (user = ? OR user = '*') AND ? LIKE replace(replace(topic, '_', '\\_'), '*', '%') ESCAPE '\\'
       ORDER BY user = '*', length(topic) DESC, write DESC LIMIT 1`,
    ).get(username, topic) as { read: number; write: number } | undefined;
    return row && { read: row.read === 1, write: row.write === 1 };
  }

  async users(): Promise<User[]> {
    const rows = this.sql(`${selectUser} ORDER BY role = 'user', name`).all() as UserRow[];
    return rows.map((row) => this.toUser(row)!);
  }

  async addUser(name: string, hash: string, role: Role): Promise<void> {
    const added = this.sql('INSERT OR IGNORE INTO users (name, hash, role, sync_topic, created) VALUES (?, ?, ?, ?, ?)').run(
      name, hash, role, randomName('st_', 16), Math.floor(Date.now() / 1000),
    );
    if (added.changes === 0) throw new AlreadyExists(`user ${name} already exists`);
  }

  async removeUser(name: string): Promise<void> {
    this.db.transaction(() => {
      this.changed(this.sql('DELETE FROM users WHERE name = ?').run(name).changes, name);
      this.sql('DELETE FROM access WHERE user = ? OR owner = ?').run(name, name);
    })();
  }

  async changePassword(name: string, hash: string): Promise<void> {
    this.changed(this.sql('UPDATE users SET hash = ? WHERE name = ?').run(hash, name).changes, name);
  }

  async changeRole(name: string, role: Role): Promise<void> {
    this.db.transaction(() => {
      this.changed(this.sql('UPDATE users SET role = ? WHERE name = ?').run(role, name).changes, name);
      // An admin may do everything, so entries of their own would only mislead (as ntfy).
      if (role === 'admin') this.sql('DELETE FROM access WHERE user = ?').run(name);
    })();
  }

  async changeTier(name: string, code: string | undefined): Promise<void> {
    if (code !== undefined && !(await this.tier(code))) throw new NotFound(`tier ${code} does not exist`);
    this.changed(this.sql('UPDATE users SET tier = ? WHERE name = ?').run(code ?? null, name).changes, name);
  }

  async changePrefs(name: string, prefs: Prefs): Promise<void> {
    this.changed(this.sql('UPDATE users SET prefs = ? WHERE name = ?').run(JSON.stringify(prefs), name).changes, name);
  }

  async grants(username: string): Promise<Grant[]> {
    const rows = this.sql('SELECT topic, read, write FROM access WHERE user = ? ORDER BY length(topic) DESC, write DESC, read DESC, topic').all(username) as {
      topic: string;
      read: number;
      write: number;
    }[];
    return rows.map((r) => ({ topic: r.topic, permission: { read: r.read === 1, write: r.write === 1 } }));
  }

  async allowAccess(username: string, topic: string, p: Permission): Promise<void> {
    if (username !== everyone && !(await this.user(username))) throw new NotFound(`user ${username} does not exist`);
    this.upsertAccess(username, topic, p, null);
  }

  async resetAccess(username?: string, topic?: string): Promise<void> {
    if (username === undefined) this.sql('DELETE FROM access').run();
    else if (topic === undefined) this.sql('DELETE FROM access WHERE user = ? OR owner = ?').run(username, username);
    else this.sql('DELETE FROM access WHERE (user = ? OR owner = ?) AND topic = ?').run(username, username, topic);
  }

  async reservations(username: string): Promise<Reservation[]> {
    const rows = this.sql(
      `SELECT a.topic, e.read, e.write FROM access a LEFT JOIN access e ON e.topic = a.topic AND e.user = '*'
       WHERE a.user = ? AND a.owner = a.user ORDER BY a.topic`,
    ).all(username) as { topic: string; read: number | null; write: number | null }[];
    return rows.map((r) => ({ topic: r.topic, everyone: { read: r.read === 1, write: r.write === 1 } }));
  }

  async reservationOwner(topic: string): Promise<string | undefined> {
    return this.sql('SELECT owner FROM access WHERE topic = ? AND user = owner').pluck().get(topic) as string | undefined;
  }

  async othersHaveAccess(username: string, topic: string): Promise<boolean> {
    const count = this.sql(
      `SELECT COUNT(*) FROM access WHERE ? LIKE replace(replace(topic, '_', '\\_'), '*', '%') ESCAPE '\\'
       AND (owner IS NULL OR owner != ?)`,
    ).pluck().get(topic, username) as number;
    return count > 0;
  }

  async addReservation(username: string, topic: string, everyoneMay: Permission): Promise<void> {
    this.db.transaction(() => {
      this.upsertAccess(username, topic, readWrite, username);
      this.upsertAccess(everyone, topic, everyoneMay, username);
    })();
  }

  async removeReservations(username: string, topics: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      for (const topic of topics) this.sql('DELETE FROM access WHERE owner = ? AND topic = ?').run(username, topic);
    })();
  }

  async addToken(username: string, t: Token): Promise<void> {
    if (!(await this.user(username))) throw new NotFound(`user ${username} does not exist`);
    this.sql('INSERT INTO tokens (token, user, label, expires, last_access, last_origin) VALUES (?, ?, ?, ?, ?, ?)').run(
      t.token, username, t.label, t.expires, t.lastAccess, t.lastOrigin,
    );
  }

  async tokens(username: string): Promise<Token[]> {
    return this.sql(`${selectToken} WHERE user = ? ORDER BY expires = 0 DESC, expires DESC, token`).all(username) as Token[];
  }

  async changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    this.sql('UPDATE tokens SET label = coalesce(?, label), expires = coalesce(?, expires) WHERE user = ? AND token = ?').run(
      change.label ?? null, change.expires ?? null, username, token,
    );
    return this.sql(`${selectToken} WHERE user = ? AND token = ?`).get(username, token) as Token | undefined;
  }

  async removeToken(username: string, token: string): Promise<boolean> {
    return this.sql('DELETE FROM tokens WHERE user = ? AND token = ?').run(username, token).changes > 0;
  }

  async removeExpiredTokens(now: number): Promise<void> {
    this.sql('DELETE FROM tokens WHERE expires > 0 AND expires <= ?').run(now);
  }

  async tiers(): Promise<Tier[]> {
    return (this.sql('SELECT * FROM tiers ORDER BY code').all() as TierRow[]).map(toTier);
  }

  async tier(code: string): Promise<Tier | undefined> {
    const row = this.sql('SELECT * FROM tiers WHERE code = ?').get(code) as TierRow | undefined;
    return row && toTier(row);
  }

  async putTier(t: Tier, replace: boolean): Promise<void> {
    const verb = replace ? 'INSERT OR REPLACE' : 'INSERT OR IGNORE';
    const changes = this.sql(
      `${verb} INTO tiers (code, name, message_limit, message_expiry_duration, email_limit, call_limit, reservation_limit,
         attachment_file_size_limit, attachment_total_size_limit, attachment_expiry_duration, attachment_bandwidth_limit)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      t.code, t.name, t.messageLimit, t.messageExpiryDuration, t.emailLimit, t.callLimit, t.reservationLimit,
      t.attachmentFileSizeLimit, t.attachmentTotalSizeLimit, t.attachmentExpiryDuration, t.attachmentBandwidthLimit,
    ).changes;
    if (changes === 0) throw new AlreadyExists(`tier ${t.code} already exists`);
  }

  async removeTier(code: string): Promise<void> {
    const users = this.sql('SELECT COUNT(*) FROM users WHERE tier = ?').pluck().get(code) as number;
    if (users > 0) throw new InUse(`tier ${code} is in use by ${users} user(s)`);
    if (this.sql('DELETE FROM tiers WHERE code = ?').run(code).changes === 0) throw new NotFound(`tier ${code} does not exist`);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private upsertAccess(username: string, topic: string, p: Permission, owner: string | null): void {
    this.sql(
      `INSERT INTO access (user, topic, read, write, owner) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user, topic) DO UPDATE SET read = excluded.read, write = excluded.write, owner = excluded.owner`,
    ).run(username, topic, p.read ? 1 : 0, p.write ? 1 : 0, owner);
  }

  private toUser(row: UserRow | undefined): User | undefined {
    if (!row) return undefined;
    const tier = row.tier === null ? undefined : this.sql('SELECT * FROM tiers WHERE code = ?').get(row.tier) as TierRow | undefined;
    return { name: row.name, hash: row.hash, role: row.role, syncTopic: row.sync_topic, prefs: JSON.parse(row.prefs) as Prefs, ...(tier && { tier: toTier(tier) }) };
  }

  private changed(changes: number, name: string): void {
    if (changes === 0) throw new NotFound(`user ${name} does not exist`);
  }
}

function toTier(r: TierRow): Tier {
  return {
    code: r.code,
    name: r.name,
    messageLimit: r.message_limit,
    messageExpiryDuration: r.message_expiry_duration,
    emailLimit: r.email_limit,
    callLimit: r.call_limit,
    reservationLimit: r.reservation_limit,
    attachmentFileSizeLimit: r.attachment_file_size_limit,
    attachmentTotalSizeLimit: r.attachment_total_size_limit,
    attachmentExpiryDuration: r.attachment_expiry_duration,
    attachmentBandwidthLimit: r.attachment_bandwidth_limit,
  };
}

