import type Database from 'better-sqlite3';
import type { Message } from '../../model/message.js';
import type { CacheEntry } from '../../store/message-cache.js';
import { publishedStats } from '../../store/sqlite/message-cache.js';
import { cacheSchemaVersion } from '../../store/sqlite/schema.js';
import { checkVersion, openSource } from './source-file.js';

/**
 * Reads a Tocsin cache-file (the embedded store's SQLite file) read-only, in commit order
 * (`seq`), a page at a time. Its tables are read here rather than through
 * SqliteMessageCache: that one migrates the schema and takes the write lock when it opens,
 * and the port lists nothing in commit order (replays go by topic and byte budget). Every
 * schema version keeps each message's JSON as it was served, which is all the import needs.
 */
export class TocsinCacheReader {
  private readonly db: Database.Database;
  private readonly page: Database.Statement;

  constructor(file: string) {
    this.db = openSource(file, {
      what: 'cache-file',
      tables: { messages: ['seq', 'json', 'published'], stats: ['key', 'value'], schema_version: ['version'] },
      // ntfy's messages have their id in `mid` (from its schema 5, ntfy 1.10).
      ntfyProbe: "SELECT 1 FROM pragma_table_info('messages') WHERE name = 'mid'",
    });
    try {
      checkVersion(file, 'cache', this.db.prepare('SELECT version FROM schema_version WHERE id = 1').pluck().get() as number, cacheSchemaVersion);
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.page = this.db.prepare('SELECT seq, json, published FROM messages WHERE seq > ? ORDER BY seq LIMIT ?').raw(true);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
  }

  /** The total the old server's /v1/stats reported. */
  publishedTotal(): number {
    return this.db.prepare(`SELECT IFNULL(SUM(value), 0) FROM stats WHERE key IN (${publishedStats.map(() => '?').join(', ')})`).pluck().get(...publishedStats) as number;
  }

  /** Every message, `size` at a time, oldest commit first. */
  *pages(size: number): Generator<CacheEntry[]> {
    let after = 0;
    for (;;) {
      const rows = this.page.all(after, size) as [seq: number, json: string, published: number][];
      const last = rows[rows.length - 1];
      if (!last) return;
      after = last[0];
      yield rows.map(([, json, published]) => ({ message: JSON.parse(json) as Message, json, published: published === 1 }));
    }
  }

  close(): void {
    this.db.close();
  }
}
