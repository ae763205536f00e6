import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteWebPushStore } from '../../src/store/sqlite/webpush-store.js';
import { tempDir } from '../support/server.js';
import { describeWebPushStore } from './contracts/webpush-store.contract.js';

describeWebPushStore('sqlite', async (location = join(tempDir(), 'webpush.db')) => {
  const instance = new SqliteWebPushStore(location, '');
  return { instance, location, close: () => instance.close() };
});

describe('web push store — sqlite file', () => {
  it('keeps ntfy\'s schema: rows written as ntfy writes them are read, and ours as ntfy reads them', async () => {
    // Given: a web-push-file with a subscription as ntfy 2.13 stores it (webpush_store.go).
    const file = join(tempDir(), 'webpush.db');
    const store = new SqliteWebPushStore(file, '');
    await store.close();
    const db = new Database(file);
    db.prepare("INSERT INTO subscription VALUES ('wps_ntfy000001', 'https://fcm.googleapis.com/x', 'a', 'p', 'u_1', '1.2.3.4', 100, 0)").run();
    db.prepare("INSERT INTO subscription_topic VALUES ('wps_ntfy000001', 'mytopic')").run();
    db.close();

    // When: Tocsin opens it and adds one.
    const reopened = new SqliteWebPushStore(file, 'PRAGMA cache_size = -1000');
    const found = await reopened.forTopic('mytopic');
    await reopened.upsert({ endpoint: 'https://fcm.googleapis.com/y', auth: 'b', p256dh: 'q', userId: '', subscriberIp: '5.6.7.8', topics: ['mytopic'] }, 200);
    await reopened.close();

    // Then: each reads the other's rows.
    assert.deepEqual(found, [{ id: 'wps_ntfy000001', endpoint: 'https://fcm.googleapis.com/x', auth: 'a', p256dh: 'p', userId: 'u_1' }]);
    const rows = new Database(file, { readonly: true });
    const ntfyRead = rows.prepare('SELECT endpoint, key_auth, updated_at, warned_at FROM subscription_topic st JOIN subscription s ON s.id = st.subscription_id WHERE st.topic = ? ORDER BY endpoint').all('mytopic');
    rows.close();
    assert.deepEqual(ntfyRead, [
      { endpoint: 'https://fcm.googleapis.com/x', key_auth: 'a', updated_at: 100, warned_at: 0 },
      { endpoint: 'https://fcm.googleapis.com/y', key_auth: 'b', updated_at: 200, warned_at: 0 },
    ]);
  });
});
