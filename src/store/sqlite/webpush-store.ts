import type Database from 'better-sqlite3';
import { randomId } from '../../model/message.js';
import { endpointsPerAddress, TooManyWebPushSubscriptions, type KeptWebPushSubscription, type WebPushRegistration, type WebPushStore, type WebPushSubscription } from '../webpush-store.js';
import { openDatabase } from './database.js';

/** ntfy's schema version of the web-push-file, which Tocsin keeps. */
export const webPushSchemaVersion = 1;

/**
 * ntfy's schema (webpush_store.go, version 1), so the web-push-file of an ntfy server
 * opens here unchanged, and the other way round.
 */
const schema = `
  CREATE TABLE IF NOT EXISTS subscription (
    id TEXT PRIMARY KEY,
    endpoint TEXT NOT NULL,
    key_auth TEXT NOT NULL,
    key_p256dh TEXT NOT NULL,
    user_id TEXT NOT NULL,
    subscriber_ip TEXT NOT NULL,
    updated_at INT NOT NULL,
    warned_at INT NOT NULL DEFAULT 0
  );
  CREATE UNIQUE INDEX IF NOT EXISTS idx_endpoint ON subscription (endpoint);
  CREATE INDEX IF NOT EXISTS idx_subscriber_ip ON subscription (subscriber_ip);
  CREATE TABLE IF NOT EXISTS subscription_topic (
    subscription_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    PRIMARY KEY (subscription_id, topic),
    FOREIGN KEY (subscription_id) REFERENCES subscription (id) ON DELETE CASCADE
  );
  CREATE INDEX IF NOT EXISTS idx_topic ON subscription_topic (topic);
  CREATE TABLE IF NOT EXISTS schemaVersion (id INT PRIMARY KEY, version INT NOT NULL);
  INSERT OR IGNORE INTO schemaVersion VALUES (1, ${webPushSchemaVersion});
`;

const columns = 'id, endpoint, key_auth AS auth, key_p256dh AS p256dh, user_id AS userId';

/** The embedded WebPushStore: ntfy's SQLite file (web-push-file), WAL, one statement or transaction per call. */
export class SqliteWebPushStore implements WebPushStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string, startupQueries: string) {
    this.db = openDatabase(file, startupQueries);
    try {
      // Removals take the topics with them (ON DELETE CASCADE), as in ntfy.
      this.db.pragma('foreign_keys = ON');
      this.db.transaction(() => this.db.exec(schema)).immediate();
    } catch (err) {
      this.db.close();
      throw err;
    }
    const prepare = (sql: string): Database.Statement => this.db.prepare(sql);
    this.statements = {
      idOf: prepare('SELECT id FROM subscription WHERE endpoint = ?').pluck(),
      countOf: prepare('SELECT COUNT(*) FROM subscription WHERE subscriber_ip = ?').pluck(),
      upsert: prepare(`
        INSERT INTO subscription (id, endpoint, key_auth, key_p256dh, user_id, subscriber_ip, updated_at, warned_at)
        VALUES (@id, @endpoint, @auth, @p256dh, @userId, @subscriberIp, @now, 0)
        ON CONFLICT (endpoint) DO UPDATE SET key_auth = excluded.key_auth, key_p256dh = excluded.key_p256dh,
          user_id = excluded.user_id, subscriber_ip = excluded.subscriber_ip, updated_at = excluded.updated_at, warned_at = 0`),
      // OR IGNORE: an endpoint (or id) held already stays as it is.
      importOne: prepare(`
        INSERT OR IGNORE INTO subscription (id, endpoint, key_auth, key_p256dh, user_id, subscriber_ip, updated_at, warned_at)
        VALUES (@id, @endpoint, @auth, @p256dh, @userId, @subscriberIp, @updatedAt, @warnedAt)`),
      clearTopics: prepare('DELETE FROM subscription_topic WHERE subscription_id = ?'),
      addTopic: prepare('INSERT OR IGNORE INTO subscription_topic (subscription_id, topic) VALUES (?, ?)'),
      forTopic: prepare(`SELECT ${columns} FROM subscription_topic st JOIN subscription s ON s.id = st.subscription_id WHERE st.topic = ? ORDER BY endpoint`),
      expiring: prepare(`SELECT ${columns} FROM subscription WHERE warned_at = 0 AND updated_at <= ? ORDER BY endpoint`),
      markWarned: prepare('UPDATE subscription SET warned_at = ? WHERE id = ?'),
      touch: prepare('UPDATE subscription SET updated_at = ?, warned_at = 0 WHERE endpoint = ?'),
      removeExpired: prepare('DELETE FROM subscription WHERE updated_at <= ?'),
      removeByEndpoint: prepare('DELETE FROM subscription WHERE endpoint = ?'),
      removeByUser: prepare('DELETE FROM subscription WHERE user_id = ?'),
    };
  }

  async upsert(registration: WebPushRegistration, now: number): Promise<void> {
    const s = this.statements;
    // IMMEDIATE: the count and the insert hold for every process writing the file.
    this.db
      .transaction(() => {
        let id = s.idOf.get(registration.endpoint) as string | undefined;
        if (id === undefined) {
          if ((s.countOf.get(registration.subscriberIp) as number) >= endpointsPerAddress) throw new TooManyWebPushSubscriptions();
          id = `wps_${randomId(10)}`;
        }
        const { endpoint, auth, p256dh, userId, subscriberIp } = registration;
        s.upsert.run({ id, endpoint, auth, p256dh, userId, subscriberIp, now });
        s.clearTopics.run(id);
        for (const topic of registration.topics) s.addTopic.run(id, topic);
      })
      .immediate();
  }

  async import(sub: KeptWebPushSubscription): Promise<boolean> {
    const s = this.statements;
    return this.db
      .transaction(() => {
        const { id, endpoint, auth, p256dh, userId, subscriberIp, updatedAt, warnedAt } = sub;
        if (s.importOne.run({ id, endpoint, auth, p256dh, userId, subscriberIp, updatedAt, warnedAt }).changes === 0) return false;
        for (const topic of sub.topics) s.addTopic.run(id, topic);
        return true;
      })
      .immediate();
  }

  async forTopic(topic: string): Promise<WebPushSubscription[]> {
    return this.statements.forTopic.all(topic) as WebPushSubscription[];
  }

  async expiring(before: number): Promise<WebPushSubscription[]> {
    return this.statements.expiring.all(before) as WebPushSubscription[];
  }

  async markWarned(ids: readonly string[], now: number): Promise<void> {
    this.db.transaction(() => ids.forEach((id) => this.statements.markWarned.run(now, id)))();
  }

  async touch(endpoints: readonly string[], now: number): Promise<void> {
    this.db.transaction(() => endpoints.forEach((endpoint) => this.statements.touch.run(now, endpoint)))();
  }

  async removeExpired(before: number): Promise<number> {
    return this.statements.removeExpired.run(before).changes;
  }

  async removeByEndpoint(endpoint: string): Promise<void> {
    this.statements.removeByEndpoint.run(endpoint);
  }

  async removeByUser(userId: string): Promise<void> {
    if (userId !== '') this.statements.removeByUser.run(userId);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
