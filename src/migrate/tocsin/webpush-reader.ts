import { webPushSchemaVersion } from '../../store/sqlite/webpush-store.js';
import type { KeptWebPushSubscription } from '../../store/webpush-store.js';
import { checkVersion, openSource } from './source-file.js';

/**
 * Reads a web-push-file (ntfy's schema, which Tocsin keeps) read-only, each subscription
 * with its topics. Read here rather than through SqliteWebPushStore, which creates its
 * tables when it opens, and whose port finds subscriptions only by topic or age, without
 * the address, times and warning an import keeps.
 */
export function readWebPush(file: string): KeptWebPushSubscription[] {
  const db = openSource(file, {
    what: 'web-push-file',
    tables: {
      subscription: ['id', 'endpoint', 'key_auth', 'key_p256dh', 'user_id', 'subscriber_ip', 'updated_at', 'warned_at'],
      subscription_topic: ['subscription_id', 'topic'],
      schemaVersion: ['version'],
    },
  });
  try {
    checkVersion(file, 'web-push-file', db.prepare('SELECT version FROM schemaVersion WHERE id = 1').pluck().get() as number, webPushSchemaVersion);
    const topics = new Map<string, string[]>();
    for (const { id, topic } of db.prepare('SELECT subscription_id AS id, topic FROM subscription_topic ORDER BY topic').all() as { id: string; topic: string }[]) {
      topics.set(id, [...(topics.get(id) ?? []), topic]);
    }
    const rows = db.prepare(`
      SELECT id, endpoint, key_auth AS auth, key_p256dh AS p256dh, user_id AS userId, subscriber_ip AS subscriberIp,
        updated_at AS updatedAt, warned_at AS warnedAt
      FROM subscription ORDER BY endpoint`).all() as Omit<KeptWebPushSubscription, 'topics'>[];
    return rows.map((row) => ({ ...row, topics: topics.get(row.id) ?? [] }));
  } finally {
    db.close();
  }
}
