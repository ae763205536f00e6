import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { messageJson } from '../../src/model/message.js';
import type { MessageCache } from '../../src/store/message-cache.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { ThreadedSqliteCache } from '../support/sqlite-cache-thread.js';
import { tempDir } from '../support/server.js';
import { entry, ids, message, now } from './contracts/cache-messages.js';
import type { Open } from './contracts/instances.js';
import { itBoundsDropRecords } from './contracts/drop-records.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/** The embedded store's cache; a location is the file, '' memory (every instance its own). */
const sqlite: Open<MessageCache> = async (location = join(tempDir(), 'cache.db')) => {
  const store = openSqliteStore(location);
  return { instance: store.cache, location, close: () => store.close() };
};

describeMessageCache('sqlite file', sqlite, { shared: true });
describeMessageCache('sqlite memory', () => sqlite(''), { shared: false });
describeMessageCache('sqlite file, a thread per instance', async (location = join(tempDir(), 'cache.db')) => {
  const cache = await ThreadedSqliteCache.open(location);
  return { instance: cache, location, close: () => cache.close() };
}, { shared: true });

describe('sqlite cache dropped-message records', () => {
  itBoundsDropRecords(async () => {
    const db = join(tempDir(), 'drops.db');
    const store = openSqliteStore(db);
    after(() => store.close());
    const reader = new Database(db, { readonly: true });
    after(() => reader.close());
    return { cache: store.cache, rows: async () => reader.prepare('SELECT count(*) FROM topic_drops').pluck().get() as number };
  });
});

describe('sqlite cache size', () => {
  it('bytes grow with the messages held and shrink back to the pages in use once they are pruned', async () => {
    const store = openSqliteStore(join(tempDir(), 'size.db'));
    after(() => store.close());
    const empty = await store.cache.bytes();
    await store.cache.add(Array.from({ length: 100 }, () => entry(message('big', { message: 'x'.repeat(1000), expires: now - 1 }))));
    const full = await store.cache.bytes();
    assert.ok(full >= empty + 100_000, `${full} bytes after 100 KB added to ${empty}`);
    await store.cache.prune(now);
    assert.ok((await store.cache.bytes()) < full - 90_000, 'deleted rows leave free pages, which are not counted');
  });
});

describe('sqlite replay as one block', () => {
  it('reads a whole topic under the cap as JSON lines in one block, oldest first; pages otherwise', async () => {
    const store = openSqliteStore(join(tempDir(), 'block.db'));
    after(() => store.close());
    const older = message('blk', { time: now - 100 });
    const newer = message('blk', { time: now - 10 });
    // Committed newest first: the block still comes in time order.
    await store.cache.add([entry(newer), entry(older), entry(message('blk', { time: now + 60 }), false)]);
    const all = await store.cache.replay({ topic: 'blk', since: { kind: 'all' }, scheduled: false, maxBytes: 1e6 });
    const lines = `${messageJson(older)}\n${messageJson(newer)}\n`;
    assert.equal(all.lines?.toString(), lines);
    assert.deepEqual(all.json, [messageJson(older), messageJson(newer)]);
    assert.equal(all.bytes, Buffer.byteLength(lines) - 2);
    const since = await store.cache.replay({ topic: 'blk', since: { kind: 'time', time: now - 50 }, scheduled: false, maxBytes: 1e6 });
    assert.equal(since.lines?.toString(), `${messageJson(newer)}\n`);
    const none = await store.cache.replay({ topic: 'nothing', since: { kind: 'all' }, scheduled: false, maxBytes: 1e6 });
    assert.deepEqual([none.json, none.lines], [[], undefined]);
    const byId = await store.cache.replay({ topic: 'blk', since: { kind: 'id', id: newer.id }, scheduled: false, maxBytes: 1e6 });
    assert.deepEqual([byId.json, byId.lines], [[messageJson(older)], undefined], 'since=<id> (commit order) reads its few messages in a page');
    const capped = await store.cache.replay({ topic: 'blk', since: { kind: 'all' }, scheduled: false, maxBytes: Buffer.byteLength(messageJson(newer)) });
    assert.deepEqual([capped.json, capped.lines, capped.truncated], [[messageJson(newer)], undefined, true], 'over the cap: the newest that fit, from pages');
  });
});

describe('cache schema', () => {
  it('migrates a version 1 file: its messages stay and scheduled ones keep their sequence id', async () => {
    const file = join(tempDir(), 'v1.db');
    const v1 = new Database(file);
    v1.exec(`
      CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, topic TEXT NOT NULL,
        time INTEGER NOT NULL, expires INTEGER NOT NULL, published INTEGER NOT NULL, json TEXT NOT NULL);
      CREATE INDEX idx_messages_due ON messages (time) WHERE published = 0;
      CREATE TABLE stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      CREATE TABLE schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO schema_version VALUES (1, 1);`);
    const old = message('mig', { time: now + 60, sequence_id: 'beat' });
    v1.prepare('INSERT INTO messages (id, topic, time, expires, published, json) VALUES (?, ?, ?, ?, 0, ?)').run(old.id, 'mig', old.time, old.expires, messageJson(old));
    v1.close();
    const store = openSqliteStore(file);
    after(() => store.close());
    const replacement = message('mig', { time: now + 90, sequence_id: 'beat' });
    assert.deepEqual((await store.cache.add([entry(replacement, false)])).replaced, [old.id]);
  });

  it('migrates a version 2 file: the id loses its UNIQUE index and the topic its index, messages, since=<id> and the seq counter stay', async () => {
    const file = join(tempDir(), 'v2-unique.db');
    const v2 = new Database(file);
    v2.exec(`
      CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, topic TEXT NOT NULL,
        time INTEGER NOT NULL, expires INTEGER NOT NULL, published INTEGER NOT NULL, json TEXT NOT NULL, sequence_id TEXT);
      CREATE INDEX idx_messages_topic_time ON messages (topic, time, seq);
      CREATE INDEX idx_messages_expires ON messages (expires);
      CREATE TABLE stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      CREATE TABLE schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO schema_version VALUES (1, 2);`);
    const [first, second, dropped] = [message('v2'), message('v2'), message('v2')];
    const insert = v2.prepare('INSERT INTO messages (id, topic, time, expires, published, json) VALUES (?, ?, ?, ?, 1, ?)');
    for (const m of [first, second, dropped]) insert.run(m.id, m.topic, m.time, m.expires, messageJson(m));
    v2.prepare('DELETE FROM messages WHERE id = ?').run(dropped.id);
    v2.close();
    const store = openSqliteStore(file);
    after(() => store.close());
    assert.deepEqual(await ids(store.cache, 'v2', { kind: 'id', id: first.id }), [second.id]);
    const next = message('v2');
    assert.deepEqual((await store.cache.add([entry(next)])).seqs, [4], 'the seq of the message deleted before is not handed out again');
    await assert.rejects(store.cache.add([entry(second)]), /already holds a message with id/);
    const db = new Database(file, { readonly: true });
    after(() => db.close());
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name").pluck().all();
    assert.deepEqual(indexes, ['idx_messages_expires', 'idx_messages_waiting_sid']);
    assert.equal(db.prepare('SELECT version FROM schema_version').pluck().get(), 3);
  });

  it('a file whose total was saved whole keeps it: additions add to it', async () => {
    const file = join(tempDir(), 'v2.db');
    await openSqliteStore(file).close();
    const v2 = new Database(file);
    // What saveStats wrote before totals were added up: the absolute total.
    v2.prepare("INSERT INTO stats (key, value) VALUES ('messages', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(1000);
    v2.close();
    const store = openSqliteStore(file);
    after(() => store.close());
    assert.equal(await store.cache.loadStats(), 1000);
    assert.equal(await store.cache.addStats(3), 1003);
  });
});
