import type Database from 'better-sqlite3';
import { UnknownSchema } from './unknown-schema.js';

/**
 * ntfy's cache.db `messages` table at each schema version it shipped (server/message_cache.go:
 * createMessagesTableQuery and migrations 0 → 13): the columns each version added. Version
 * 0 (ntfy 1.2–1.4, before `schemaVersion`) keyed messages by their id in `id`; version 5
 * rebuilt the table with an autoincrement `id` (ntfy's commit order) and the message id
 * in `mid`; 7 renamed attachment_owner to sender; 10 added `expires` (set to time +
 * cache-duration by ntfy's own migration, as here), `user` and `attachment_deleted`.
 * Versions 9 and 13 only added indexes.
 */
const added: Readonly<Record<number, readonly string[]>> = {
  0: ['id', 'time', 'topic', 'message'],
  1: ['title', 'priority', 'tags'],
  2: ['published'],
  3: ['click', 'attachment_name', 'attachment_type', 'attachment_size', 'attachment_expires', 'attachment_owner', 'attachment_url'],
  4: ['encoding'],
  5: ['mid'],
  6: ['actions'],
  7: ['sender'],
  8: ['icon'],
  10: ['user', 'attachment_deleted', 'expires'],
  12: ['content_type'],
};

export const newestCacheVersion = 13;

/** Every column the import reads, with what stands for it in a version that lacks it. */
const fields: readonly (readonly [column: string, missing: string])[] = [
  ['time', '0'], ['topic', "''"], ['message', "''"], ['title', "''"], ['priority', '0'], ['tags', "''"],
  ['click', "''"], ['icon', "''"], ['actions', "''"], ['attachment_name', "''"], ['attachment_type', "''"],
  ['attachment_size', '0'], ['attachment_expires', '0'], ['attachment_url', "''"], ['attachment_deleted', '0'],
  ['sender', "''"], ['user', "''"], ['content_type', "''"], ['encoding', "''"], ['published', '1'],
];

/** How to read one version's rows: in ntfy's commit order, keyset-paged by `order`. */
export interface CacheLayout {
  version: number;
  /** ntfy's commit order: `id` from version 5, the rowid before. */
  order: string;
  /** SELECT list: order key, message id, `expires` or null, then `fields` in order. */
  select: string;
}

/** The schema version of an ntfy cache.db and how to read it; `UnknownSchema` for one ntfy never shipped. */
export function cacheLayout(db: Database.Database, file: string): CacheLayout {
  const version = schemaVersion(db, file);
  if (version > newestCacheVersion) throw new UnknownSchema(file, 'messages', version, `it reads ntfy's versions 0 to ${newestCacheVersion}`);
  const have = new Set((db.pragma('table_info(messages)') as { name: string }[]).map((c) => c.name));
  const expected = columnsAt(version);
  const missing = expected.filter((c) => !have.has(c));
  if (missing.length > 0) throw new UnknownSchema(file, 'messages', version, `it lacks ${missing.join(', ')}, which version ${version} has`);
  const order = version >= 5 ? 'id' : 'rowid';
  const columnOf = (c: string): string => (c === 'sender' && version < 7 ? 'attachment_owner' : c);
  const list = fields.map(([c, absent]) => (expected.includes(columnOf(c)) ? `"${columnOf(c)}"` : absent));
  const expires = version >= 10 ? 'expires' : 'NULL';
  return { version, order, select: `${order}, ${version >= 5 ? 'mid' : 'id'}, ${expires}, ${list.join(', ')}` };
}

function columnsAt(version: number): string[] {
  const columns = Object.entries(added).flatMap(([v, cs]) => (Number(v) <= version ? cs : []));
  return version >= 7 ? columns.filter((c) => c !== 'attachment_owner') : columns;
}

/** ntfy's selectSchemaVersionQuery; a file without the table is version 0, as ntfy reads it. */
function schemaVersion(db: Database.Database, file: string): number {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  if (!tables.has('messages')) throw new UnknownSchema(file, 'messages', undefined, 'the table is missing: is this an ntfy cache-file?');
  if (!tables.has('schemaVersion')) return 0;
  const version = db.prepare('SELECT version FROM schemaVersion WHERE id = 1').pluck().get() as number | undefined;
  if (version === undefined) throw new UnknownSchema(file, 'schemaVersion', undefined, 'it holds no version');
  return version;
}
