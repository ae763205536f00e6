import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MultiRowInsert } from '../../src/store/sqlite/multi-row-insert.js';

describe('MultiRowInsert', () => {
  it('inserts the rows in order, in chunks of maxRows, and returns the last rowid', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, n INTEGER)');
    const insert = new MultiRowInsert(db, 'INSERT INTO t (name, n)', 2, 2);
    assert.equal(insert.run([['a', 1], ['b', 2], ['c', 3], ['d', 4], ['e', 5]]), 5);
    assert.equal(insert.run([['f', 6]]), 6);
    assert.deepEqual(db.prepare('SELECT id, name, n FROM t ORDER BY id').raw(true).all(), [
      [1, 'a', 1], [2, 'b', 2], [3, 'c', 3], [4, 'd', 4], [5, 'e', 5], [6, 'f', 6],
    ]);
    db.close();
  });

  it('binds every value as it is: null, numbers, text with quotes', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a, b)');
    new MultiRowInsert(db, 'INSERT INTO t (a, b)', 2).run([[null, 1.5], ["it's", 'x, y']]);
    assert.deepEqual(db.prepare('SELECT a, b FROM t ORDER BY rowid').raw(true).all(), [[null, 1.5], ["it's", 'x, y']]);
    db.close();
  });
});
