import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { MemoryIndexes } from '../../src/store/sqlite/memory-indexes.js';
import { openCacheSchema } from '../../src/store/sqlite/schema.js';
import { tempDir } from '../support/server.js';

interface Files {
  db: Database.Database;
  indexes: MemoryIndexes;
  /** The second connection. */
  other: Database.Database;
  /** Inserts a message through the second connection; its seq. */
  insert: (id: string, topic?: string) => number;
}

/** Two connections on one cache file: `indexes` is kept through the first, `other` writes beside it. */
function twoConnections(): Files {
  const file = join(tempDir(), 'indexes.db');
  const db = openDatabase(file, '');
  openCacheSchema(db);
  const other = openDatabase(file, '');
  after(() => (db.close(), other.close()));
  const statement = other.prepare("INSERT INTO messages (id, topic, time, expires, published, json) VALUES (?, ?, 0, 0, 1, '{}')");
  return { db, indexes: new MemoryIndexes(db, 0), other, insert: (id, topic = 't') => Number(statement.run(id, topic).lastInsertRowid) };
}

/** The topic index's rows, as [topic, seq]. */
function topicRows(db: Database.Database): [string, number][] {
  return db.prepare('SELECT topic, seq FROM memory.topic_index ORDER BY seq').raw(true).all() as [string, number][];
}

describe('MemoryIndexes', () => {
  it('finds the rows another connection committed, and forgets the ones it deleted', () => {
    const { db, indexes, other, insert } = twoConnections();
    const seq = insert('fromOther001', 'news');
    assert.equal(indexes.seqOf('fromOther001'), seq);
    assert.deepEqual(topicRows(db), [['news', seq]]);
    assert.deepEqual(indexes.topics(), ['news']);
    other.prepare('DELETE FROM messages WHERE seq = ?').run(seq);
    assert.equal(indexes.seqOf('fromOther001'), undefined);
    assert.equal(indexes.size, 0, 'the stale entry was dropped by the lookup that met it');
  });

  it('indexes what the file held when it opened', () => {
    const { other, insert } = twoConnections();
    const seqs = ['held00000001', 'held00000002'].map((id) => insert(id, 'a'));
    const reopened = new MemoryIndexes(other);
    assert.deepEqual(['held00000001', 'held00000002', 'absent000000'].map((id) => reopened.seqOf(id)), [...seqs, undefined]);
    assert.deepEqual(topicRows(other), [['a', seqs[0]], ['a', seqs[1]]]);
  });

  it('rebuilds when most entries went stale under another connection (it prunes)', () => {
    const { db, indexes, other, insert } = twoConnections();
    other.transaction(() => Array.from({ length: 3000 }, (_, i) => insert(`pruned${String(i).padStart(6, '0')}`)))();
    assert.notEqual(indexes.seqOf('pruned000000'), undefined);
    assert.equal(indexes.size, 3000);
    other.exec('DELETE FROM messages');
    const kept = insert('kept00000001', 'kept');
    assert.equal(indexes.seqOf('kept00000001'), kept);
    assert.equal(indexes.size, 1, '3,000 stale entries against an empty table: rebuilt');
    assert.deepEqual(topicRows(db), [['kept', kept]]);
  });

  it('undoes the changes of a transaction that throws, in both indexes', () => {
    const { db, indexes } = twoConnections();
    const before = { id: 'before000001', topic: 'b', time: 0, seq: 1, size: 2 };
    indexes.added([before]);
    const transaction = db.transaction(() => {
      indexes.added([{ id: 'rolledback01', topic: 'r', time: 0, seq: 2, size: 2 }]);
      indexes.removed(before);
      throw new Error('rolled back');
    });
    assert.throws(() => indexes.writing(() => transaction.immediate()), /rolled back/);
    assert.equal(indexes.size, 1);
    assert.deepEqual(topicRows(db), [['b', 1]]);
  });
});
