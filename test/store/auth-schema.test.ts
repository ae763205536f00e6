import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { tempDir } from '../support/server.js';

/**
 * An auth-file made by the store as it was before the schema carried a version (commit
 * 59aec4e): tier `pro`; admin ben; phil on `pro` with prefs, an entry for `alerts`, a
 * reservation of `mine` and a token; `prov` provisioned with an entry and a token; and
 * everyone's entry for `up*`. Written in rollback-journal mode so it is one file.
 */
const fixture = new URL('../../../test/fixtures/auth-before-versioning.db', import.meta.url);

function copyOfFixture(): string {
  const file = join(tempDir(), 'auth.db');
  copyFileSync(fixture, file);
  return file;
}

function open(file: string): SqliteAuthStore {
  const s = new SqliteAuthStore(file);
  after(() => s.close());
  return s;
}

/** The file's tables and indexes as SQLite stores their CREATE statements, and its version. */
function schemaOf(file: string): { tables: unknown[]; version: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    return { tables, version: db.pragma('user_version', { simple: true }) };
  } finally {
    db.close();
  }
}

/** The tables of versions 2 (phone numbers), 3 (e-mail addresses, magic links), 4 (token scopes) and 5 (groups) and their indexes. */
const isLater = (t: unknown): boolean => /phones|emails|magic_links|token_scopes|groups|group_members/.test((t as { name: string }).name);

describe('auth store — schema versions', () => {
  it('a file made before versioning opens at the latest version, its tables of version 1 unchanged and its users, entries and tokens kept', async () => {
    // Given an auth-file written by the store before versioning
    const file = copyOfFixture();
    const before = schemaOf(file);
    assert.equal(before.version, 0);
    // When this store opens it
    const s = open(file);
    // Then the tables of version 1 stay as they were; version 2 added the phone numbers, 3 the e-mail addresses and magic links, 4 token scopes, 5 groups
    const after = schemaOf(file);
    assert.equal(after.version, 5);
    assert.deepEqual(after.tables.filter((t) => !isLater(t)), before.tables);
    assert.deepEqual(after.tables.filter(isLater).map((t) => (t as { name: string }).name).sort(), [
      'emails', 'group_members', 'groups', 'idx_emails_primary_address', 'idx_emails_primary_user', 'idx_group_members_grp', 'idx_magic_links_expires', 'idx_magic_links_user',
      'magic_links', 'phones', 'sqlite_autoindex_emails_1', 'sqlite_autoindex_group_members_1', 'sqlite_autoindex_groups_1', 'sqlite_autoindex_magic_links_1', 'sqlite_autoindex_phones_1',
      'sqlite_autoindex_token_scopes_1', 'token_scopes',
    ]);
    assert.deepEqual(await s.phoneNumbers('phil'), []);
    await s.addPhoneNumber('phil', '+12223334444');
    assert.deepEqual(await s.phoneNumbers('phil'), ['+12223334444']);
    // And what it held is all there
    assert.deepEqual((await s.users()).map((u) => [u.name, u.role, u.hash, u.tier?.code, u.provisioned]), [
      ['ben', 'admin', '$2a$10$benhash', undefined, false],
      ['phil', 'user', '$2a$10$philhash', 'pro', false],
      ['prov', 'user', '$2a$10$provhash', undefined, true],
    ]);
    assert.deepEqual((await s.user('phil'))?.prefs, { language: 'de' });
    assert.deepEqual(await s.grants('phil'), [
      { topic: 'alerts', permission: { read: true, write: false } },
      { topic: 'mine', permission: { read: true, write: true } },
    ]);
    assert.deepEqual(await s.grants('*'), [
      { topic: 'mine', permission: { read: true, write: false } },
      { topic: 'up*', permission: { read: true, write: true } },
    ]);
    assert.deepEqual(await s.reservations('phil'), [{ topic: 'mine', everyone: { read: true, write: false } }]);
    assert.deepEqual(await s.permission('prov', 'ops-east'), { read: true, write: false });
    assert.deepEqual(await s.tokens('phil'), [
      { token: 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa', label: 'phone', expires: 0, lastAccess: 1_700_000_000, lastOrigin: '198.51.100.7', provisioned: false },
    ]);
    assert.equal((await s.userByToken('tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa'))?.name, 'phil');
    assert.equal((await s.userByToken('tk_provisionedprovisionedprovis'))?.name, 'prov');
    assert.deepEqual((await s.tiers()).map((t) => t.code), ['pro']);
  });

  it('a new file gets exactly the tables of a file made before versioning and brought up to date', async () => {
    // Given a new file made by this store, and the old file opened by it
    const file = join(tempDir(), 'auth.db');
    await new SqliteAuthStore(file).close();
    const old = copyOfFixture();
    await new SqliteAuthStore(old).close();
    // Then their tables are the same, statement for statement
    assert.deepEqual(schemaOf(file), { tables: schemaOf(old).tables, version: 5 });
  });

  it('a file at a version newer than this Tocsin knows stops the open, naming that version, and is left as it was', async () => {
    // Given a file a newer Tocsin has moved to version 7
    const file = join(tempDir(), 'auth.db');
    await new SqliteAuthStore(file).close();
    const db = new Database(file);
    db.pragma('user_version = 7');
    db.close();
    // When this store opens it, then it refuses
    assert.throws(() => new SqliteAuthStore(file), { message: 'auth-file schema version 7 is newer than this Tocsin (5)' });
    // And the file keeps its version
    assert.equal(schemaOf(file).version, 7);
  });
});
