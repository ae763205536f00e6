import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describeOpenError } from '../../store/sqlite/open-error.js';
import { NotImportable } from '../not-importable.js';

/** What a source file must hold to be the Tocsin file its flag names. */
export interface Expected {
  /** As the flag names it: `cache-file`, `auth-file` ... */
  what: string;
  /** Tables, each with the columns the import reads. */
  tables: Readonly<Record<string, readonly string[]>>;
  /** A query that finds a row in ntfy's file of the same kind: said so when tables are missing. */
  ntfyProbe?: string;
}

/**
 * One of the old server's SQLite files, opened read-only: the import never changes its
 * source, so a failed or repeated run leaves the old server as it was (SQLite may add the
 * -wal and -shm files beside it, as for any reader). Throws `NotImportable` for a missing
 * file, one that is no SQLite database, and one without the tables and columns
 * `expected` names.
 */
export function openSource(file: string, expected: Expected): Database.Database {
  const refuse = (detail: string): NotImportable => new NotImportable(file, `not a Tocsin ${expected.what}: ${detail}`);
  if (!existsSync(file)) throw new NotImportable(file, `no such file (the ${expected.what} to import)`);
  let db: Database.Database | undefined;
  try {
    const opened = new Database(file, { readonly: true, fileMustExist: true });
    db = opened;
    const tables = new Set(opened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    const missing = Object.entries(expected.tables).flatMap(([table, columns]) => {
      if (!tables.has(table)) return [`table ${table}`];
      const have = new Set((opened.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
      return columns.filter((c) => !have.has(c)).map((c) => `${table}.${c}`);
    });
    if (missing.length > 0) {
      const ntfy = expected.ntfyProbe !== undefined && opened.prepare(expected.ntfyProbe).get() !== undefined ? "; it looks like ntfy's, which `tocsin import ntfy` reads" : '';
      throw refuse(`it lacks ${missing.join(', ')}${ntfy}`);
    }
    return opened;
  } catch (err) {
    db?.close();
    if (err instanceof NotImportable) throw err;
    throw refuse(`it ${describeOpenError(err)}`);
  }
}

/** Refuses a file whose schema `version` is newer than the newest this Tocsin writes. */
export function checkVersion(file: string, what: string, version: number, newest: number): void {
  if (version > newest) throw new NotImportable(file, `${what} schema version ${version} is newer than this Tocsin (${newest}): import with the Tocsin that made it`);
}
