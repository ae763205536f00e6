import Database from 'better-sqlite3';
import { everyone, randomName, readWrite, tokenMaxCount, type Grant, type Permission, type Role, type User } from '../../model/access.js';
import type { Prefs, Reservation, Tier } from '../../model/account.js';
import { Statements } from './statements.js';
import { AlreadyExists, InUse, NotFound, Provisioned, type AuthStore, type Provisioning, type Token } from '../auth-store.js';
import { LruMap } from '../../model/lru-map.js';

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

interface UserRow {
  name: string;
  hash: string;
  role: Role;
  sync_topic: string;
  prefs: string;
  tier: string | null;
  provisioned: number;
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

const selectUser = 'SELECT name, hash, role, sync_topic, prefs, tier, provisioned FROM users';
/**
 * Reads remembered, least recently used forgotten first: keys come from requests (names,
 * tokens, topics, also unknown ones), so a flood of made-up tokens must neither grow the
 * memory nor push out what the real clients use.
 */
const memoLimit = 10_000;

const selectToken = 'SELECT token, label, expires, last_access AS lastAccess, last_origin AS lastOrigin, provisioned = 1 AS provisioned FROM tokens';

/**
 * The auth-file: its own SQLite database, apart from the cache, so it can be kept and
 * backed up on its own. Access patterns are stored as written (`alerts*`) and matched
 * with SQLite's case-insensitive LIKE after `*` → `%` and `_` is escaped, as ntfy does.
 */
export class SqliteAuthStore implements AuthStore {
  private readonly db: Database.Database;
  private readonly statements: Statements;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(createSchema);
    this.statements = new Statements(this.db);
  }

  /**
   * The reads of every request (who a name or token is, what a user may do with a topic)
   * are remembered until the file changes: `PRAGMA data_version` moves when another
   * connection (the CLI, another server) commits, and this connection's own writes go
   * through `write`, which forgets everything. One pragma per millisecond instead of three
   * queries and a JSON parse per request.
   */
  private readonly memo = new LruMap<string, unknown>(memoLimit);
  private memoVersion = -1;

  /** Reads remembered now (for tests: bounded by memoLimit). */
  get memoSize(): number {
    return this.memo.size;
  }

  private versionCheckedAt = 0;

  private remembered<T>(key: string, read: () => T): T {
    // At most one pragma per millisecond: a request reads two or three keys, and another
    // process's change is not expected sooner than that.
    const now = Date.now();
    if (now !== this.versionCheckedAt) {
      this.versionCheckedAt = now;
      const version = this.sql('PRAGMA data_version').pluck().get() as number;
      if (version !== this.memoVersion) this.memo.clear();
      this.memoVersion = version;
    }
    const hit = this.memo.get(key);
    if (hit !== undefined || this.memo.has(key)) return hit as T; // undefined is remembered too: no such user
    const value = read();
    this.memo.set(key, value);
    return value;
  }

  private write(text: string, ...params: unknown[]): Database.RunResult {
    this.memo.clear();
    return this.sql(text).run(...params);
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  async user(name: string): Promise<User | undefined> {
    return this.remembered(`u\0${name}`, () => this.toUser(this.sql(`${selectUser} WHERE name = ?`).get(name) as UserRow | undefined));
  }

  async userByToken(token: string): Promise<User | undefined> {
    const owner = this.remembered(`t\0${token}`, () => this.sql('SELECT user, expires FROM tokens WHERE token = ?').get(token) as { user: string; expires: number } | undefined);
    if (!owner || (owner.expires !== 0 && owner.expires <= Math.floor(Date.now() / 1000))) return undefined;
    return this.user(owner.user);
  }

  /** Not a `write`: the last use is shown, never decided on, so it keeps what is remembered. */
  async touchToken(token: string, when: number, origin: string): Promise<void> {
    this.sql('UPDATE tokens SET last_access = ?, last_origin = ? WHERE token = ?').run(when, origin, token);
  }

  async permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.remembered(`p\0${username}\0${topic}`, () => {
      const row = this.sql(
        `SELECT read, write FROM access
         WHERE (user = ? OR user = '*') AND ? LIKE replace(replace(topic, '_', '\\_'), '*', '%') ESCAPE '\\'
         ORDER BY user = '*', length(topic) DESC, write DESC LIMIT 1`,
      ).get(username, topic) as { read: number; write: number } | undefined;
      return row && { read: row.read === 1, write: row.write === 1 };
    });
  }

  async users(): Promise<User[]> {
    const rows = this.sql(`${selectUser} ORDER BY role = 'user', name`).all() as UserRow[];
    return rows.map((row) => this.toUser(row)!);
  }

  async userCount(): Promise<number> {
    return this.remembered('n\0users', () => this.sql('SELECT COUNT(*) FROM users').pluck().get() as number);
  }

  async addUser(name: string, hash: string, role: Role): Promise<void> {
    const added = this.write('INSERT OR IGNORE INTO users (name, hash, role, sync_topic, created) VALUES (?, ?, ?, ?, ?)', 
      name, hash, role, randomName('st_', 16), Math.floor(Date.now() / 1000),
    );
    if (added.changes === 0) throw new AlreadyExists(`user ${name} already exists`);
  }

  async removeUser(name: string): Promise<void> {
    this.unprovisioned(name);
    this.deleteUser(name);
  }

  async changePassword(name: string, hash: string): Promise<void> {
    this.unprovisioned(name);
    this.write('UPDATE users SET hash = ? WHERE name = ?', hash, name);
  }

  async changeRole(name: string, role: Role): Promise<void> {
    this.unprovisioned(name);
    this.setRole(name, role);
  }

  async provision(p: Provisioning): Promise<void> {
    this.db.transaction(() => {
      const listed = new Set(p.users.map((u) => u.name));
      const earlier = this.sql('SELECT name FROM users WHERE provisioned = 1').pluck().all() as string[];
      for (const name of earlier.filter((n) => !listed.has(n))) this.deleteUser(name);
      for (const u of p.users) {
        this.write(
          `INSERT INTO users (name, hash, role, sync_topic, provisioned, created) VALUES (?, ?, ?, ?, 1, ?)
           ON CONFLICT (name) DO UPDATE SET hash = excluded.hash, provisioned = 1`,
          u.name, u.hash, u.role, randomName('st_', 16), Math.floor(Date.now() / 1000),
        );
        this.setRole(u.name, u.role);
      }
      // Entries carry no state of their own: drop the provisioned ones and add them anew.
      this.write('DELETE FROM access WHERE provisioned = 1');
      for (const g of p.grants) this.upsertAccess(g.user, g.topic, g.permission, null, true);
      const tokens = new Set(p.tokens.map((t) => t.token));
      const earlierTokens = this.sql('SELECT token FROM tokens WHERE provisioned = 1').pluck().all() as string[];
      for (const token of earlierTokens.filter((t) => !tokens.has(t))) this.write('DELETE FROM tokens WHERE token = ?', token);
      for (const t of p.tokens) {
        this.write(
          `INSERT INTO tokens (token, user, label, expires, last_access, last_origin, provisioned) VALUES (?, ?, ?, 0, 0, '', 1)
           ON CONFLICT (token) DO UPDATE SET user = excluded.user, label = excluded.label, expires = 0, provisioned = 1`,
          t.token, t.user, t.label,
        );
      }
    })();
  }

  async changeTier(name: string, code: string | undefined): Promise<void> {
    if (code !== undefined && !(await this.tier(code))) throw new NotFound(`tier ${code} does not exist`);
    this.changed(this.write('UPDATE users SET tier = ? WHERE name = ?', code ?? null, name).changes, name);
  }

  async changePrefs(name: string, prefs: Prefs): Promise<void> {
    this.changed(this.write('UPDATE users SET prefs = ? WHERE name = ?', JSON.stringify(prefs), name).changes, name);
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
    if (username === undefined) this.write('DELETE FROM access');
    else if (topic === undefined) this.write('DELETE FROM access WHERE user = ? OR owner = ?', username, username);
    else this.write('DELETE FROM access WHERE (user = ? OR owner = ?) AND topic = ?', username, username, topic);
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
      for (const topic of topics) this.write('DELETE FROM access WHERE owner = ? AND topic = ?', username, topic);
    })();
  }

  async addToken(username: string, t: Token): Promise<void> {
    if (!(await this.user(username))) throw new NotFound(`user ${username} does not exist`);
    this.db.transaction(() => {
      this.write('INSERT INTO tokens (token, user, label, expires, last_access, last_origin) VALUES (?, ?, ?, ?, ?, ?)',
        t.token, username, t.label, t.expires, t.lastAccess, t.lastOrigin,
      );
      // Counted first, as ntfy: the count is an index lookup, the pruning a scan of the user's tokens.
      const count = this.sql('SELECT COUNT(*) FROM tokens WHERE user = ?').pluck().get(username) as number;
      if (count <= tokenMaxCount) return;
      // ntfy keeps `ORDER BY expires DESC`, which ranks never-expiring tokens (0) last and
      // could drop the token just handed out; here those are kept first.
      this.write(
        `DELETE FROM tokens WHERE user = ? AND provisioned = 0 AND token NOT IN (
           SELECT token FROM tokens WHERE user = ?
           ORDER BY token = ? DESC, provisioned DESC, expires = 0 DESC, expires DESC, rowid DESC LIMIT ?)`,
        username, username, t.token, tokenMaxCount,
      );
    })();
  }

  async tokens(username: string): Promise<Token[]> {
    return (this.sql(`${selectToken} WHERE user = ? ORDER BY expires = 0 DESC, expires DESC, token`).all(username) as TokenRow[]).map(toToken);
  }

  async changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    this.unprovisionedToken(username, token);
    this.write('UPDATE tokens SET label = coalesce(?, label), expires = coalesce(?, expires) WHERE user = ? AND token = ?',
      change.label ?? null, change.expires ?? null, username, token,
    );
    const row = this.sql(`${selectToken} WHERE user = ? AND token = ?`).get(username, token) as TokenRow | undefined;
    return row && toToken(row);
  }

  async removeToken(username: string, token: string): Promise<boolean> {
    this.unprovisionedToken(username, token);
    return this.write('DELETE FROM tokens WHERE user = ? AND token = ?', username, token).changes > 0;
  }

  async removeExpiredTokens(now: number): Promise<void> {
    this.write('DELETE FROM tokens WHERE expires > 0 AND expires <= ?', now);
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
    const changes = this.write(
      `${verb} INTO tiers (code, name, message_limit, message_expiry_duration, email_limit, call_limit, reservation_limit,
         attachment_file_size_limit, attachment_total_size_limit, attachment_expiry_duration, attachment_bandwidth_limit)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t.code, t.name, t.messageLimit, t.messageExpiryDuration, t.emailLimit, t.callLimit, t.reservationLimit,
      t.attachmentFileSizeLimit, t.attachmentTotalSizeLimit, t.attachmentExpiryDuration, t.attachmentBandwidthLimit,
    ).changes;
    if (changes === 0) throw new AlreadyExists(`tier ${t.code} already exists`);
  }

  async removeTier(code: string): Promise<void> {
    const users = this.sql('SELECT COUNT(*) FROM users WHERE tier = ?').pluck().get(code) as number;
    if (users > 0) throw new InUse(`tier ${code} is in use by ${users} user(s)`);
    if (this.write('DELETE FROM tiers WHERE code = ?', code).changes === 0) throw new NotFound(`tier ${code} does not exist`);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private upsertAccess(username: string, topic: string, p: Permission, owner: string | null, provisioned = false): void {
    this.write(
      `INSERT INTO access (user, topic, read, write, owner, provisioned) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user, topic) DO UPDATE SET read = excluded.read, write = excluded.write, owner = excluded.owner, provisioned = excluded.provisioned`,
      username, topic, p.read ? 1 : 0, p.write ? 1 : 0, owner, provisioned ? 1 : 0,
    );
  }

  private deleteUser(name: string): void {
    this.db.transaction(() => {
      this.write('DELETE FROM users WHERE name = ?', name);
      this.write('DELETE FROM access WHERE user = ? OR owner = ?', name, name);
    })();
  }

  private setRole(name: string, role: Role): void {
    this.db.transaction(() => {
      this.write('UPDATE users SET role = ? WHERE name = ?', role, name);
      // An admin may do everything, so entries of their own would only mislead (as ntfy).
      if (role === 'admin') this.write('DELETE FROM access WHERE user = ?', name);
    })();
  }

  /** NotFound for a missing user, Provisioned for one server.yml owns. */
  private unprovisioned(name: string): void {
    const provisioned = this.sql('SELECT provisioned FROM users WHERE name = ?').pluck().get(name) as number | undefined;
    if (provisioned === undefined) throw new NotFound(`user ${name} does not exist`);
    if (provisioned === 1) throw new Provisioned('user');
  }

  private unprovisionedToken(username: string, token: string): void {
    const provisioned = this.sql('SELECT provisioned FROM tokens WHERE user = ? AND token = ?').pluck().get(username, token) as number | undefined;
    if (provisioned === 1) throw new Provisioned('token');
  }

  private toUser(row: UserRow | undefined): User | undefined {
    if (!row) return undefined;
    const tier = row.tier === null ? undefined : this.sql('SELECT * FROM tiers WHERE code = ?').get(row.tier) as TierRow | undefined;
    return {
      name: row.name,
      hash: row.hash,
      role: row.role,
      syncTopic: row.sync_topic,
      prefs: JSON.parse(row.prefs) as Prefs,
      provisioned: row.provisioned === 1,
      ...(tier && { tier: toTier(tier) }),
    };
  }

  private changed(changes: number, name: string): void {
    if (changes === 0) throw new NotFound(`user ${name} does not exist`);
  }
}

interface TokenRow extends Omit<Token, 'provisioned'> {
  provisioned: number;
}

function toToken(row: TokenRow): Token {
  return { ...row, provisioned: row.provisioned === 1 };
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

