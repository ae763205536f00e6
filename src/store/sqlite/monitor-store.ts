import type Database from 'better-sqlite3';
import type { Monitor, MonitorSettings, MonitorState } from '../../monitors/monitor.js';
import { MonitorExists, TooManyMonitors, type MonitorStore } from '../monitor-store.js';
import { openDatabase } from './database.js';

/**
 * ntfy's table (monitor/manager_sqlite.go), keyed by the owner's user name where ntfy has
 * its user id (Tocsin's users have no other id).
 */
const schema = `
  CREATE TABLE IF NOT EXISTS monitor (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    period_seconds INT NOT NULL,
    grace_seconds INT NOT NULL,
    alert_topic TEXT NOT NULL,
    alert_priority INT NOT NULL DEFAULT 4,
    state TEXT NOT NULL DEFAULT 'pending',
    last_seen_at INT NOT NULL DEFAULT 0,
    created_at INT NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS idx_monitor_user_key ON monitor (user_id, key);
  CREATE INDEX IF NOT EXISTS idx_monitor_state ON monitor (state);
`;

const columns = 'user_id AS user, key, period_seconds AS period, grace_seconds AS grace, alert_topic AS alertTopic, alert_priority AS alertPriority, state, last_seen_at AS lastSeenAt, created_at AS createdAt';
const isStale = 'last_seen_at + period_seconds + grace_seconds < @now';

/** The monitors in an SQLite file of their own (monitor-file). */
export class SqliteMonitorStore implements MonitorStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    this.db = openDatabase(file, '');
    this.db.exec(schema);
    const prepare = (sql: string) => this.db.prepare(sql);
    this.statements = {
      count: prepare('SELECT COUNT(*) FROM monitor WHERE user_id = ?').pluck(),
      insert: prepare(`
        INSERT OR IGNORE INTO monitor (user_id, key, period_seconds, grace_seconds, alert_topic, alert_priority, state, last_seen_at, created_at)
        VALUES (@user, @key, @period, @grace, @alertTopic, @alertPriority, 'pending', 0, @now)`),
      get: prepare(`SELECT ${columns} FROM monitor WHERE user_id = ? AND key = ?`),
      list: prepare(`SELECT ${columns} FROM monitor WHERE user_id = ? ORDER BY key`),
      update: prepare(`
        UPDATE monitor SET period_seconds = @period, grace_seconds = @grace, alert_topic = @alertTopic, alert_priority = @alertPriority
        WHERE user_id = @user AND key = @key`),
      heartbeat: prepare("UPDATE monitor SET last_seen_at = @now, state = 'up' WHERE user_id = @user AND key = @key"),
      stale: prepare(`SELECT ${columns} FROM monitor WHERE state = 'up' AND ${isStale} ORDER BY user_id, key`),
      markDown: prepare(`UPDATE monitor SET state = 'down' WHERE user_id = @user AND key = @key AND state = 'up' AND ${isStale}`),
      remove: prepare('DELETE FROM monitor WHERE user_id = ? AND key = ?'),
      removeByUser: prepare('DELETE FROM monitor WHERE user_id = ?'),
    };
  }

  async add(user: string, key: string, settings: MonitorSettings, limit: number, now: number): Promise<Monitor> {
    const s = this.statements;
    // IMMEDIATE: the count and the insert hold for every process writing the file.
    this.db
      .transaction(() => {
        if ((s.count.get(user) as number) >= limit && s.get.get(user, key) === undefined) throw new TooManyMonitors(limit);
        if (s.insert.run({ user, key, ...settings, now }).changes === 0) throw new MonitorExists();
      })
      .immediate();
    return this.found(user, key) as Monitor;
  }

  async list(user: string): Promise<Monitor[]> {
    return this.statements.list.all(user) as Monitor[];
  }

  async get(user: string, key: string): Promise<Monitor | undefined> {
    return this.found(user, key);
  }

  async update(user: string, key: string, settings: Partial<MonitorSettings>): Promise<Monitor | undefined> {
    return this.db.transaction(() => {
      const current = this.found(user, key);
      if (current === undefined) return undefined;
      this.statements.update.run({ ...current, ...settings });
      return this.found(user, key);
    })();
  }

  async heartbeat(user: string, key: string, now: number): Promise<{ monitor: Monitor; previous: MonitorState } | undefined> {
    return this.db.transaction(() => {
      const before = this.found(user, key);
      if (before === undefined) return undefined;
      this.statements.heartbeat.run({ user, key, now });
      return { monitor: { ...before, state: 'up' as const, lastSeenAt: now }, previous: before.state };
    })();
  }

  async stale(now: number): Promise<Monitor[]> {
    return this.statements.stale.all({ now }) as Monitor[];
  }

  async markDown(user: string, key: string, now: number): Promise<boolean> {
    return this.statements.markDown.run({ user, key, now }).changes === 1;
  }

  async remove(user: string, key: string): Promise<number> {
    return this.statements.remove.run(user, key).changes;
  }

  async removeByUser(user: string): Promise<number> {
    return this.statements.removeByUser.run(user).changes;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private found(user: string, key: string): Monitor | undefined {
    return this.statements.get.get(user, key) as Monitor | undefined;
  }
}
