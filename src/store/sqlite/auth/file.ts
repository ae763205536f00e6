import Database from 'better-sqlite3';
import { Statements } from '../statements.js';
import { ReadCache } from './read-cache.js';
import { openAuthSchema } from './schema.js';

/**
 * The auth-file's one connection, shared by the parts of the store: statements prepared
 * once, reads remembered in one cache, and every write through `write`, which forgets
 * what was remembered, so no part can change the file behind another part's cache.
 */
export class AuthFile {
  private readonly db: Database.Database;
  private readonly statements: Statements;
  private readonly cache: ReadCache;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    try {
      openAuthSchema(this.db);
    } catch (err) {
      this.db.close(); // the caller gets no store to close
      throw err;
    }
    this.statements = new Statements(this.db);
    this.cache = new ReadCache(() => this.sql('PRAGMA data_version').pluck().get() as number);
  }

  get rememberedCount(): number {
    return this.cache.size;
  }

  sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  /** `whole`: a read of a whole table, kept apart from the request keys (ReadCache). */
  remembered<T>(key: string, read: () => T, whole = false): T {
    return this.cache.get(key, read, whole);
  }

  write(text: string, ...params: unknown[]): Database.RunResult {
    this.cache.clear();
    return this.sql(text).run(...params);
  }

  /**
   * Runs `body` in one transaction; nested calls become savepoints of the outer one.
   * IMMEDIATE takes the write lock first: a body that reads before it writes (provisioning)
   * would otherwise meet another process's lock with a read snapshot open, where SQLite
   * fails at once (SQLITE_BUSY) instead of waiting out busy_timeout.
   */
  transaction<T>(body: () => T): T {
    return this.db.transaction(body).immediate();
  }

  close(): void {
    this.db.close();
  }
}
