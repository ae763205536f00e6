import type pg from 'pg';
import { randomId } from '../../model/message.js';
import { endpointsPerAddress, TooManyWebPushSubscriptions, type KeptWebPushSubscription, type WebPushRegistration, type WebPushStore, type WebPushSubscription } from '../webpush-store.js';
import { inTransaction } from './pool.js';

/**
 * ntfy 2.18's web push tables on PostgreSQL: its SQLite schema (webpush_store.go) with the
 * tables prefixed `webpush_`, BIGINT times and the topics removed with their subscription
 * by the foreign key's cascade. Made by schema.ts.
 */
export const webPushSchema = `
  CREATE TABLE IF NOT EXISTS webpush_subscription (
    id TEXT PRIMARY KEY,
    endpoint TEXT NOT NULL UNIQUE,
    key_auth TEXT NOT NULL,
    key_p256dh TEXT NOT NULL,
    user_id TEXT NOT NULL,
    subscriber_ip TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    warned_at BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS idx_webpush_subscriber_ip ON webpush_subscription (subscriber_ip);
  CREATE INDEX IF NOT EXISTS idx_webpush_updated_at ON webpush_subscription (updated_at);
  CREATE TABLE IF NOT EXISTS webpush_subscription_topic (
    subscription_id TEXT NOT NULL REFERENCES webpush_subscription (id) ON DELETE CASCADE,
    topic TEXT NOT NULL,
    PRIMARY KEY (subscription_id, topic)
  );
  CREATE INDEX IF NOT EXISTS idx_webpush_topic ON webpush_subscription_topic (topic);
`;

const columns = 'id, endpoint, key_auth AS auth, key_p256dh AS p256dh, user_id AS "userId"';

/** The WebPushStore on PostgreSQL, shared by every node on the database. */
export class PostgresWebPushStore implements WebPushStore {
  /** On the pool of a store whose schema is open (schema.ts); the pool is the store's to close. */
  constructor(private readonly pool: pg.Pool) {}

  async upsert(registration: WebPushRegistration, now: number): Promise<void> {
    const { endpoint, auth, p256dh, userId, subscriberIp, topics } = registration;
    await inTransaction(this.pool, async (client) => {
      // One registration per address at a time, on every node: the count and the insert hold together.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webpush ${subscriberIp}`]);
      let id = (await client.query<{ id: string }>('SELECT id FROM webpush_subscription WHERE endpoint = $1', [endpoint])).rows[0]?.id;
      if (id === undefined) {
        const held = (await client.query<{ n: number }>('SELECT count(*) AS n FROM webpush_subscription WHERE subscriber_ip = $1', [subscriberIp])).rows[0]?.n ?? 0;
        if (held >= endpointsPerAddress) throw new TooManyWebPushSubscriptions();
        id = `wps_${randomId(10)}`;
      }
      const upserted = await client.query<{ id: string }>(
        `INSERT INTO webpush_subscription (id, endpoint, key_auth, key_p256dh, user_id, subscriber_ip, updated_at, warned_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0)
         ON CONFLICT (endpoint) DO UPDATE SET key_auth = excluded.key_auth, key_p256dh = excluded.key_p256dh,
           user_id = excluded.user_id, subscriber_ip = excluded.subscriber_ip, updated_at = excluded.updated_at, warned_at = 0
         RETURNING id`,
        [id, endpoint, auth, p256dh, userId, subscriberIp, now],
      );
      // Another address may have registered the endpoint meanwhile: its id stays.
      const kept = upserted.rows[0]?.id ?? id;
      await client.query('DELETE FROM webpush_subscription_topic WHERE subscription_id = $1', [kept]);
      await client.query('INSERT INTO webpush_subscription_topic (subscription_id, topic) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [kept, topics]);
    });
  }

  async import(sub: KeptWebPushSubscription): Promise<boolean> {
    const { id, endpoint, auth, p256dh, userId, subscriberIp, updatedAt, warnedAt, topics } = sub;
    return inTransaction(this.pool, async (client) => {
      const added = await client.query(
        `INSERT INTO webpush_subscription (id, endpoint, key_auth, key_p256dh, user_id, subscriber_ip, updated_at, warned_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [id, endpoint, auth, p256dh, userId, subscriberIp, updatedAt, warnedAt],
      );
      if (added.rowCount !== 1) return false;
      await client.query('INSERT INTO webpush_subscription_topic (subscription_id, topic) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [id, topics]);
      return true;
    });
  }

  async forTopic(topic: string): Promise<WebPushSubscription[]> {
    const sql = `SELECT ${columns} FROM webpush_subscription_topic st JOIN webpush_subscription s ON s.id = st.subscription_id WHERE st.topic = $1 ORDER BY endpoint`;
    return (await this.pool.query<WebPushSubscription>(sql, [topic])).rows;
  }

  async expiring(before: number): Promise<WebPushSubscription[]> {
    return (await this.pool.query<WebPushSubscription>(`SELECT ${columns} FROM webpush_subscription WHERE warned_at = 0 AND updated_at <= $1 ORDER BY endpoint`, [before])).rows;
  }

  async markWarned(ids: readonly string[], now: number): Promise<void> {
    await this.pool.query('UPDATE webpush_subscription SET warned_at = $1 WHERE id = ANY($2)', [now, ids]);
  }

  async touch(endpoints: readonly string[], now: number): Promise<void> {
    await this.pool.query('UPDATE webpush_subscription SET updated_at = $1, warned_at = 0 WHERE endpoint = ANY($2)', [now, endpoints]);
  }

  async removeExpired(before: number): Promise<number> {
    return (await this.pool.query('DELETE FROM webpush_subscription WHERE updated_at <= $1', [before])).rowCount ?? 0;
  }

  async removeByEndpoint(endpoint: string): Promise<void> {
    await this.pool.query('DELETE FROM webpush_subscription WHERE endpoint = $1', [endpoint]);
  }

  async removeByUser(userId: string): Promise<void> {
    if (userId !== '') await this.pool.query('DELETE FROM webpush_subscription WHERE user_id = $1', [userId]);
  }

  /** The pool is the store's: nothing of this port's own to close. */
  async close(): Promise<void> {}
}
