import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { MessageIds } from '../../src/store/sqlite/message-ids.js';
import { openCacheSchema } from '../../src/store/sqlite/schema.js';
import { tempDir } from '../support/server.js';

/** Two connections on one cache file: `ids` indexes through the first, `other` writes beside it. */
function twoConnections(): { ids: MessageIds; other: Database.Database; insert: (id: string) => number } {
  const file = join(tempDir(), 'ids.db');
  const db = openDatabase(file, '');
  openCacheSchema(db);
  const other = openDatabase(file, '');
  after(() => (db.close(), other.close()));
  const statement = other.prepare("INSERT INTO messages (id, topic, time, expires, published, json) VALUES (?, 't', 0, 0, 1, '{}')");
  return { ids: new MessageIds(db, 0), other, insert: (id) => Number(statement.run(id).lastInsertRowid) };
}

describe('MessageIds', () => {
  it('finds the rows another connection committed, and forgets the ones it deleted', () => {
    const { ids, other, insert } = twoConnections();
    const seq = insert('fromOther001');
    assert.equal(ids.seqOf('fromOther001'), seq);
    other.prepare('DELETE FROM messages WHERE seq = ?').run(seq);
    assert.equal(ids.seqOf('fromOther001'), undefined);
    assert.equal(ids.size, 0, 'the stale entry was dropped by the lookup that met it');
  });

  it('indexes what the file held when it opened', () => {
    const { other, insert } = twoConnections();
    const seqs = ['held00000001', 'held00000002'].map(insert);
    const reopened = new MessageIds(other);
    assert.deepEqual(['held00000001', 'held00000002', 'absent000000'].map((id) => reopened.seqOf(id)), [...seqs, undefined]);
  });

  it('rebuilds when most entries went stale under another connection (it prunes)', () => {
    const { ids, other, insert } = twoConnections();
    other.transaction(() => Array.from({ length: 3000 }, (_, i) => insert(`pruned${String(i).padStart(6, '0')}`)))();
    assert.notEqual(ids.seqOf('pruned000000'), undefined);
    assert.equal(ids.size, 3000);
    other.exec('DELETE FROM messages');
    const kept = insert('kept00000001');
    assert.equal(ids.seqOf('kept00000001'), kept);
    assert.equal(ids.size, 1, '3,000 stale entries against an empty table: rebuilt');
  });

  it('undoes the changes of a transaction that throws', () => {
    const { ids } = twoConnections();
    ids.added('before000001', 1);
    assert.throws(() =>
      ids.writing(() => {
        ids.added('rolledback01', 2);
        ids.removed('before000001', 1);
        throw new Error('rolled back');
      }),
    );
    assert.equal(ids.size, 1);
  });
});
