import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { writeFailure } from '../../src/store/sqlite/write-error.js';
import { StoreWriteError } from '../../src/store/write-error.js';

const sqliteError = (code: string): Error => Object.assign(new Error(code), { code });

describe('store write errors', () => {
  it('SQLite full is a full store; I/O, read-only and lock failures a store not writable', () => {
    const full = writeFailure(sqliteError('SQLITE_FULL'));
    assert.ok(full instanceof StoreWriteError && full.full);
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY_DBMOVED', 'SQLITE_BUSY', 'SQLITE_CANTOPEN']) {
      const e = writeFailure(sqliteError(code));
      assert.ok(e instanceof StoreWriteError && !e.full, code);
    }
  });

  it('other errors pass unchanged: a constraint is a bug, not a full disk', () => {
    for (const err of [sqliteError('SQLITE_CONSTRAINT_UNIQUE'), new TypeError('x'), 'text', null]) assert.equal(writeFailure(err), err);
  });

  it("a real SQLite database at its max_page_count reports SQLITE_FULL, as for a full disk", () => {
    const db = new Database(':memory:');
    db.pragma('max_page_count = 4');
    db.exec('CREATE TABLE t (v TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    let failure: unknown;
    try {
      for (let i = 0; i < 100; i++) insert.run('x'.repeat(4000));
    } catch (err) {
      failure = writeFailure(err);
    }
    assert.ok(failure instanceof StoreWriteError && failure.full);
    db.close();
  });
});
