import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { importNtfy } from '../../src/migrate/ntfy/import.js';
import { UnknownSchema } from '../../src/migrate/ntfy/unknown-schema.js';
import { openStores } from '../../src/store/index.js';
import { tempDir } from '../support/server.js';
import { ntfyFiles, quietOutput, tocsinConfig } from './ntfy-fixtures.js';

/**
 * Cache schemas older than the fixtures', made with ntfy's own statements (server/
 * cache_sqlite.go of ntfy 1.4 and the migrations of server/message_cache.go), and schemas
 * the import must refuse.
 */

const version0 = `
  CREATE TABLE IF NOT EXISTS messages (
    id VARCHAR(20) PRIMARY KEY,
    time INT NOT NULL,
    topic VARCHAR(64) NOT NULL,
    message VARCHAR(1024) NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idx_topic ON messages (topic);`;

/** migrate0To1 … migrate2To3 of ntfy's message_cache.go, then the version table as ntfy keeps it. */
const version3 = `${version0}
  ALTER TABLE messages ADD COLUMN title TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN priority INT NOT NULL DEFAULT(0);
  ALTER TABLE messages ADD COLUMN tags TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN published INT NOT NULL DEFAULT(1);
  ALTER TABLE messages ADD COLUMN click TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN attachment_name TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN attachment_type TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN attachment_size INT NOT NULL DEFAULT('0');
  ALTER TABLE messages ADD COLUMN attachment_expires INT NOT NULL DEFAULT('0');
  ALTER TABLE messages ADD COLUMN attachment_owner TEXT NOT NULL DEFAULT('');
  ALTER TABLE messages ADD COLUMN attachment_url TEXT NOT NULL DEFAULT('');
  CREATE TABLE IF NOT EXISTS schemaVersion (id INT PRIMARY KEY, version INT NOT NULL);
  INSERT INTO schemaVersion VALUES (1, 3);`;

const now = Math.floor(Date.now() / 1000);

function cacheFile(schema: string, insert: (db: Database.Database) => void): string {
  const file = join(tempDir(), 'cache.db');
  const db = new Database(file);
  db.exec(schema);
  insert(db);
  db.close();
  return file;
}

async function replayed(config: ReturnType<typeof tocsinConfig>['config'], topic: string): Promise<unknown[]> {
  const stores = await openStores(config, { error: () => undefined, warn: () => undefined });
  try {
    const { json } = await stores.cache.replay({ topic, since: { kind: 'all' }, scheduled: true, maxBytes: 1e9 });
    return json.map((m) => JSON.parse(m) as unknown);
  } finally {
    await stores.close();
  }
}

describe('import ntfy — older cache schemas', () => {
  it('version 0 (ntfy 1.2–1.4): rowid order, expiry from cache-duration', async () => {
    // Inserted out of id order: the rowid is the commit order.
    const file = cacheFile(version0, (db) => {
      const add = db.prepare('INSERT INTO messages (id, time, topic, message) VALUES (?, ?, ?, ?)');
      add.run('zzzzzzzzzzz1', now - 20, 'old', 'first');
      add.run('aaaaaaaaaaa2', now - 20, 'old', 'second');
    });
    const { config } = tocsinConfig({ 'cache-duration': '1h' });
    const summary = await importNtfy({ config, source: { cacheFile: file }, dryRun: false, out: quietOutput() });
    assert.deepEqual(summary.lines(false), ['messages  2 read, 2 added']);
    assert.deepEqual(await replayed(config, 'old'), [
      { id: 'zzzzzzzzzzz1', time: now - 20, expires: now - 20 + 3600, event: 'message', topic: 'old', message: 'first' },
      { id: 'aaaaaaaaaaa2', time: now - 20, expires: now - 20 + 3600, event: 'message', topic: 'old', message: 'second' },
    ]);
  });

  it('version 3: attachments and scheduled messages, the owner column before it was sender', async () => {
    const file = cacheFile(version3, (db) => {
      db.prepare(`INSERT INTO messages (id, time, topic, message, title, priority, tags, published, click, attachment_name, attachment_type,
        attachment_size, attachment_expires, attachment_owner, attachment_url) VALUES (?, ?, 'v3', ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?)`)
        .run('v3message001', now - 10, 'a file', 'T', 4, 'a,b', 1, 'f.txt', 'text/plain', 5, now + 600, '10.0.0.7', 'https://old/file/v3message001.txt');
      db.prepare("INSERT INTO messages (id, time, topic, message, published) VALUES ('v3message002', ?, 'v3', 'later', 0)").run(now + 300);
    });
    const { config } = tocsinConfig({ 'cache-duration': '2h' });
    await importNtfy({ config, source: { cacheFile: file }, dryRun: false, out: quietOutput() });
    assert.deepEqual(await replayed(config, 'v3'), [
      {
        id: 'v3message001', time: now - 10, expires: now - 10 + 7200, event: 'message', topic: 'v3', title: 'T', message: 'a file', priority: 4, tags: ['a', 'b'],
        attachment: { name: 'f.txt', type: 'text/plain', size: 5, expires: now + 600, url: 'https://old/file/v3message001.txt' },
      },
      { id: 'v3message002', time: now + 300, expires: now + 300 + 7200, event: 'message', topic: 'v3', message: 'later' },
    ]);
  });
});

describe('import ntfy — schemas it does not know', () => {
  it('a cache version newer than ntfy 2.13 names the file, table and version; nothing is written', async () => {
    const files = ntfyFiles('2.13.0');
    const db = new Database(files.cacheFile);
    db.prepare('UPDATE schemaVersion SET version = 14').run();
    db.close();
    const { config } = tocsinConfig();
    await assert.rejects(importNtfy({ config, source: files, dryRun: false, out: quietOutput() }), (err: Error) => {
      assert.ok(err instanceof UnknownSchema);
      assert.equal(err.message, `${files.cacheFile}: table messages at schema version 14 is not a schema this Tocsin can import (it reads ntfy's versions 0 to 13)`);
      return true;
    });
  });

  it('a table missing a column its version has', async () => {
    const file = cacheFile(version3.replace("ALTER TABLE messages ADD COLUMN click TEXT NOT NULL DEFAULT('');", ''), () => undefined);
    const { config } = tocsinConfig();
    await assert.rejects(importNtfy({ config, source: { cacheFile: file }, dryRun: true, out: quietOutput() }), {
      message: `${file}: table messages at schema version 3 is not a schema this Tocsin can import (it lacks click, which version 3 has)`,
    });
  });

  it('an auth-file version newer than ntfy 2.13', async () => {
    const files = ntfyFiles('2.13.0');
    const db = new Database(files.authFile);
    db.prepare('UPDATE schemaVersion SET version = 6').run();
    db.close();
    const { config } = tocsinConfig();
    await assert.rejects(importNtfy({ config, source: { authFile: files.authFile }, dryRun: false, out: quietOutput() }), {
      message: `${files.authFile}: table user at schema version 6 is not a schema this Tocsin can import (it reads ntfy's versions 1 to 5)`,
    });
  });

  it('an auth-file lacking a table its version has', async () => {
    const files = ntfyFiles('2.13.0');
    const db = new Database(files.authFile);
    db.exec('DROP TABLE user_token');
    db.close();
    const { config } = tocsinConfig();
    await assert.rejects(importNtfy({ config, source: { authFile: files.authFile }, dryRun: true, out: quietOutput() }), {
      message: `${files.authFile}: table user at schema version 5 is not a schema this Tocsin can import (no such table: user_token)`,
    });
  });
});

describe('tocsin import ntfy — the command', () => {
  const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
  const run = (args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [bin, 'import', 'ntfy', ...args], { encoding: 'utf8' });

  it('progress lines on stderr (not a terminal), the summary on stdout', () => {
    const files = ntfyFiles('1.29.1');
    const { settings } = tocsinConfig();
    const configFile = join(tempDir(), 'server.yml');
    writeFileSync(configFile, Object.entries(settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n'));
    const out = run(['--config', configFile, '--cache-file', files.cacheFile, '--auth-file', files.authFile, '--attachment-cache-dir', files.attachmentCacheDir]);
    assert.equal(out.status, 0, String(out.stderr));
    assert.equal(out.stderr, 'messages: 10/10 (100%)\n');
    assert.equal(out.stdout, [
      'imported from ntfy:',
      '  users             3 read, 3 added',
      '  access entries    5 read, 5 added',
      '  messages          10 read, 10 added',
      '  attachment files  1 read, 1 added',
      '',
    ].join('\n'));
  });

  it('an unknown schema ends it with the message and exit code 1', () => {
    const files = ntfyFiles('2.13.0');
    const db = new Database(files.cacheFile);
    db.prepare('UPDATE schemaVersion SET version = 99').run();
    db.close();
    const out = run(['--cache-file', files.cacheFile, '--dry-run']);
    assert.equal(out.status, 1);
    assert.equal(out.stderr, `tocsin: ${files.cacheFile}: table messages at schema version 99 is not a schema this Tocsin can import (it reads ntfy's versions 0 to 13)\n`);
  });
});
