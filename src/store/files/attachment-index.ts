import type Database from 'better-sqlite3';
import type { StoredFile } from '../attachment-store.js';
import type { FileIndex } from '../file-index.js';
import { openDatabase } from '../sqlite/database.js';

export const indexSchemaVersion = 1;

/**
 * The committed files and what they add up to. The sums are kept by triggers, so the
 * limits' reads cost one row however many files there are.
 */
const schema = `
  CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    size INTEGER NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    expires INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idx_files_expires ON files (expires);
  CREATE TABLE IF NOT EXISTS usage (owner TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS total (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL);
  INSERT OR IGNORE INTO total (id, bytes) VALUES (1, 0);
  CREATE TRIGGER IF NOT EXISTS files_added AFTER INSERT ON files BEGIN
    INSERT OR IGNORE INTO usage (owner, bytes) VALUES (new.owner, 0);
    UPDATE usage SET bytes = bytes + new.size WHERE owner = new.owner;
    UPDATE total SET bytes = bytes + new.size;
  END;
  CREATE TRIGGER IF NOT EXISTS files_removed AFTER DELETE ON files BEGIN
    UPDATE usage SET bytes = bytes - old.size WHERE owner = old.owner;
    DELETE FROM usage WHERE owner = old.owner AND bytes <= 0;
    UPDATE total SET bytes = bytes - old.size;
  END;
`;

/**
 * The metadata of the committed attachments, an SQLite file in the attachment directory
 * (or beside the cache file when the bytes are in S3; WAL, as the cache), so that every process using the directory reads the same files
 * and sums at once, each query atomic across them. Its version is `user_version`; a newer
 * one than this Tocsin knows stops the open.
 */
export class AttachmentIndex implements FileIndex {
  private readonly db: Database.Database;
  private readonly statements: Record<'add' | 'adopt' | 'get' | 'remove' | 'expired' | 'usage' | 'total' | 'ids' | 'known', Database.Statement>;

  constructor(file: string) {
    this.db = openDatabase(file, '');
    try {
      openSchema(this.db);
    } catch (err) {
      this.db.close();
      throw err;
    }
    const prepare = (sql: string): Database.Statement => this.db.prepare(sql);
    this.statements = {
      add: prepare('INSERT INTO files (id, owner, size, type, name, expires) VALUES (@id, @owner, @size, @type, @name, @expires)'),
      adopt: prepare('INSERT OR IGNORE INTO files (id, owner, size, type, name, expires) VALUES (@id, @owner, @size, @type, @name, @expires)'),
      get: prepare('SELECT id, size, type, name, owner, expires FROM files WHERE id = ?'),
      remove: prepare('DELETE FROM files WHERE id = ? RETURNING id'),
      expired: prepare('DELETE FROM files WHERE expires <= ? RETURNING id').pluck(),
      usage: prepare('SELECT bytes FROM usage WHERE owner = ?').pluck(),
      total: prepare('SELECT bytes FROM total').pluck(),
      ids: prepare('SELECT id FROM files').pluck(),
      known: prepare('SELECT id FROM files WHERE id IN (SELECT value FROM json_each(?))').pluck(),
    };
  }

  /** Makes `file` visible; its id must be new. */
  add(file: StoredFile): void {
    this.statements.add.run(file);
  }

  /** Makes `file` visible unless its id is known (files of the layout before the index). */
  adopt(file: StoredFile): void {
    this.statements.adopt.run(file);
  }

  get(id: string): StoredFile | undefined {
    return this.statements.get.get(id) as StoredFile | undefined;
  }

  /** Removes `id`; false when it was not there. */
  remove(id: string): boolean {
    return this.statements.remove.get(id) !== undefined;
  }

  /** Removes the files expired at `now` and answers their ids; each goes to one caller. */
  expired(now: number): string[] {
    return this.statements.expired.all(now) as string[];
  }

  usage(owner: string): number {
    return (this.statements.usage.get(owner) as number | undefined) ?? 0;
  }

  total(): number {
    return this.statements.total.get() as number;
  }

  ids(): Set<string> {
    return new Set(this.statements.ids.all() as string[]);
  }

  known(ids: readonly string[]): Set<string> {
    return new Set(this.statements.known.all(JSON.stringify(ids)) as string[]);
  }

  close(): void {
    this.db.close();
  }
}

function openSchema(db: Database.Database): void {
  // IMMEDIATE: two processes opening a new directory at once must not both create it.
  const open = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > indexSchemaVersion) throw new Error(`attachment index schema version ${version} is newer than this Tocsin (${indexSchemaVersion})`);
    if (version === indexSchemaVersion) return;
    db.exec(schema);
    db.pragma(`user_version = ${indexSchemaVersion}`);
  });
  open.immediate();
}
