import Database from 'better-sqlite3';
import type { Grant, Permission, Role, User } from '../../model/access.js';
import { AlreadyExists, NotFound, type AuthStore, type Token } from '../auth-store.js';

const createSchema = `
  CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    role TEXT NOT NULL,
    created INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS access (
    user TEXT NOT NULL,
    topic TEXT NOT NULL,
    read INTEGER NOT NULL,
    write INTEGER NOT NULL,
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
`;

interface UserRow {
  name: string;
  hash: string;
  role: Role;
}

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
    return this.sql('SELECT name, hash, role FROM users WHERE name = ?').get(name) as UserRow | undefined;
  }

  async userByToken(token: string): Promise<User | undefined> {
    return this.sql(
      `SELECT u.name, u.hash, u.role FROM tokens t JOIN users u ON u.name = t.user
       WHERE t.token = ? AND (t.expires = 0 OR t.expires > ?)`,
    ).get(token, Math.floor(Date.now() / 1000)) as UserRow | undefined;
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
    return this.sql("SELECT name, hash, role FROM users ORDER BY role = 'user', name").all() as UserRow[];
  }

  async addUser(name: string, hash: string, role: Role): Promise<void> {
    const added = this.sql('INSERT OR IGNORE INTO users (name, hash, role, created) VALUES (?, ?, ?, ?)').run(name, hash, role, Math.floor(Date.now() / 1000));
    if (added.changes === 0) throw new AlreadyExists(`user ${name} already exists`);
  }

  async removeUser(name: string): Promise<void> {
    this.db.transaction(() => {
      this.changed(this.sql('DELETE FROM users WHERE name = ?').run(name).changes, name);
      this.sql('DELETE FROM access WHERE user = ?').run(name);
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

  async grants(username: string): Promise<Grant[]> {
    const rows = this.sql('SELECT topic, read, write FROM access WHERE user = ? ORDER BY length(topic) DESC, write DESC, read DESC, topic').all(username) as {
      topic: string;
      read: number;
      write: number;
    }[];
    return rows.map((r) => ({ topic: r.topic, permission: { read: r.read === 1, write: r.write === 1 } }));
  }

  async allowAccess(username: string, topic: string, p: Permission): Promise<void> {
    if (username !== '*' && !(await this.user(username))) throw new NotFound(`user ${username} does not exist`);
    this.sql('INSERT INTO access (user, topic, read, write) VALUES (?, ?, ?, ?) ON CONFLICT (user, topic) DO UPDATE SET read = excluded.read, write = excluded.write').run(
      username, topic, p.read ? 1 : 0, p.write ? 1 : 0,
    );
  }

  async resetAccess(username?: string, topic?: string): Promise<void> {
    if (username === undefined) this.sql('DELETE FROM access').run();
    else if (topic === undefined) this.sql('DELETE FROM access WHERE user = ?').run(username);
    else this.sql('DELETE FROM access WHERE user = ? AND topic = ?').run(username, topic);
  }

  async addToken(username: string, t: Token): Promise<void> {
    if (!(await this.user(username))) throw new NotFound(`user ${username} does not exist`);
    this.sql('INSERT INTO tokens (token, user, label, expires, last_access, last_origin) VALUES (?, ?, ?, ?, ?, ?)').run(
      t.token, username, t.label, t.expires, t.lastAccess, t.lastOrigin,
    );
  }

  async tokens(username: string): Promise<Token[]> {
    return this.sql(
      'SELECT token, label, expires, last_access AS lastAccess, last_origin AS lastOrigin FROM tokens WHERE user = ? ORDER BY expires = 0 DESC, expires DESC, token',
    ).all(username) as Token[];
  }

  async removeToken(username: string, token: string): Promise<boolean> {
    return this.sql('DELETE FROM tokens WHERE user = ? AND token = ?').run(username, token).changes > 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private changed(changes: number, name: string): void {
    if (changes === 0) throw new NotFound(`user ${name} does not exist`);
  }
}
