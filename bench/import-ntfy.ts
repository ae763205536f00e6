/**
 * How fast `tocsin import ntfy` copies a large cache: makes a synthetic ntfy cache.db
 * (ntfy 2.13's schema, version 13) of N messages, imports it into a fresh Tocsin store and
 * prints the time and rate (one JSON line too). The target of issue 24: 1M in under 60 s.
 *
 *   npm run build && node dist/bench/import-ntfy.js                      1M into SQLite
 *   node dist/bench/import-ntfy.js --messages 200000 --database-url URL  into MongoDB
 *   node dist/bench/import-ntfy.js --batch 200000                        another batch size
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config/load.js';
import { randomId } from '../src/model/message.js';
import { importNtfy } from '../src/migrate/ntfy/import.js';

/** server/message_cache.go's createMessagesTableQuery (v2.13) and its schema version. */
const ntfySchema = `
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, mid TEXT NOT NULL, time INT NOT NULL, expires INT NOT NULL, topic TEXT NOT NULL,
    message TEXT NOT NULL, title TEXT NOT NULL, priority INT NOT NULL, tags TEXT NOT NULL, click TEXT NOT NULL, icon TEXT NOT NULL,
    actions TEXT NOT NULL, attachment_name TEXT NOT NULL, attachment_type TEXT NOT NULL, attachment_size INT NOT NULL,
    attachment_expires INT NOT NULL, attachment_url TEXT NOT NULL, attachment_deleted INT NOT NULL, sender TEXT NOT NULL,
    user TEXT NOT NULL, content_type TEXT NOT NULL, encoding TEXT NOT NULL, published INT NOT NULL
  );
  CREATE INDEX idx_mid ON messages (mid);
  CREATE INDEX idx_time ON messages (time);
  CREATE INDEX idx_topic ON messages (topic);
  CREATE INDEX idx_expires ON messages (expires);
  CREATE TABLE stats (key TEXT PRIMARY KEY, value INT);
  CREATE TABLE schemaVersion (id INT PRIMARY KEY, version INT NOT NULL);
  INSERT INTO schemaVersion VALUES (1, 13);`;

/** A realistic mix: a tenth with a title, tags and a priority, 1,000 topics, bodies of 40–200 bytes. */
function makeNtfyCache(file: string, count: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(ntfySchema);
  const insert = db.prepare(`INSERT INTO messages (mid, time, expires, topic, message, title, priority, tags, click, icon, actions,
    attachment_name, attachment_type, attachment_size, attachment_expires, attachment_url, attachment_deleted, sender, user, content_type,
    encoding, published) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', '', '', '', '', 0, 0, '', 0, '203.0.113.9', '', '', '', 1)`);
  const start = Math.floor(Date.now() / 1000) - 3600;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const time = start + Math.floor(i / 300);
      const rich = i % 10 === 0;
      insert.run(randomId(), time, time + 43200, `topic${i % 1000}`, `message ${i} `.padEnd(40 + (i % 160), 'x'), rich ? `Title ${i}` : '', rich ? 4 : 0, rich ? 'warning,backup' : '');
    }
  })();
  db.prepare("INSERT INTO stats VALUES ('messages', ?)").run(count);
  db.close();
}

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '1000000' }, 'database-url': { type: 'string', default: '' }, batch: { type: 'string' } },
});
const count = Number(values.messages);
const dir = mkdtempSync(join(tmpdir(), 'tocsin-import-bench-'));
try {
  const source = join(dir, 'ntfy-cache.db');
  const made = performance.now();
  makeNtfyCache(source, count);
  process.stderr.write(`made ${count} ntfy messages in ${((performance.now() - made) / 1000).toFixed(1)} s\n`);
  const { config } = loadConfig({ flags: { 'cache-file': join(dir, 'tocsin-cache.db'), 'database-url': values['database-url'] } });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const batchSize = values.batch === undefined ? undefined : Number(values.batch);
  const summary = await importNtfy({ config, source: { cacheFile: source }, dryRun: false, out: process.stderr, batchSize });
  const seconds = (performance.now() - started) / 1000;
  // Wall time depends on what else the machine runs; CPU time (every thread) does not.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const added = summary.addedOf('messages');
  const backend = values['database-url'] ? 'mongodb' : 'sqlite';
  process.stdout.write(`imported ${added} messages into ${backend} in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU): ${Math.round(added / seconds)} messages/s\n`);
  process.stdout.write(`${JSON.stringify({ scenario: 'import-ntfy', backend, messages: added, seconds: Number(seconds.toFixed(2)), cpuSeconds: Number(cpuSeconds.toFixed(2)), rate: Math.round(added / seconds) })}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
