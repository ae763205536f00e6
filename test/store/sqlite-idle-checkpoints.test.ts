import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { IdleCheckpoints } from '../../src/store/sqlite/idle-checkpoints.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/server.js';
import { until } from '../support/wait.js';
import { entry, message } from './contracts/cache-messages.js';

function open(startupQueries = ''): { db: Database.Database; file: string } {
  const file = join(tempDir(), 'cache.db');
  const db = openDatabase(file, startupQueries);
  after(() => db.open && db.close());
  db.exec('CREATE TABLE pages (data BLOB NOT NULL)');
  return { db, file };
}

/** `count` commits of a 4 KB row each, three WAL frames apiece (the row's page, the table's root and the header page), each told to `checkpoints`. */
function commit(db: Database.Database, count: number, checkpoints: IdleCheckpoints | undefined): void {
  const insert = db.prepare('INSERT INTO pages (data) VALUES (?)');
  for (let i = 0; i < count; i++) {
    insert.run(Buffer.alloc(4000, i));
    checkpoints?.committed();
  }
}

const autocheckpoint = (db: Database.Database): number => db.pragma('wal_autocheckpoint', { simple: true }) as number;

describe('checkpoints between commits', () => {
  it('copies the WAL into the file once no commit came for 10 ms and nine tenths of the connection’s threshold of frames wait', async () => {
    const { db, file } = open();
    const checkpoints = IdleCheckpoints.start(db, file);
    assert.ok(checkpoints);
    after(() => checkpoints.close());
    const before = statSync(file).size;
    // 930 frames: past 900, short of the 1,000 at which SQLite would checkpoint inside a commit.
    commit(db, 310, checkpoints);
    assert.equal(statSync(file).size, before);
    await until(() => statSync(file).size >= before + 1_250_000, 'the WAL copied into the file', { timeoutMs: 3_000 });
    assert.equal(autocheckpoint(db), 1000);
  });

  it('leaves a WAL under nine tenths of the threshold alone, so a light load checkpoints no more often than SQLite would', async () => {
    const { db, file } = open();
    const checkpoints = IdleCheckpoints.start(db, file);
    after(() => checkpoints?.close());
    const before = statSync(file).size;
    commit(db, 290, checkpoints); // 870 frames
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(statSync(file).size, before);
  });

  it('takes nine tenths of a threshold the startup queries set', async () => {
    const { db, file } = open('pragma wal_autocheckpoint = 400');
    const checkpoints = IdleCheckpoints.start(db, file);
    after(() => checkpoints?.close());
    const before = statSync(file).size;
    commit(db, 125, checkpoints); // 375 frames: past 360, short of 400
    await until(() => statSync(file).size >= before + 500_000, 'the WAL copied into the file', { timeoutMs: 3_000 });
  });

  it('checks nothing once closed', async () => {
    const { db, file } = open();
    const checkpoints = IdleCheckpoints.start(db, file);
    const before = statSync(file).size;
    commit(db, 310, checkpoints);
    checkpoints?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(statSync(file).size, before);
  });

  it('takes none for a database in memory, one not in WAL mode, or one whose startup queries turn checkpoints off', () => {
    const memory = openDatabase('', '');
    after(() => memory.close());
    assert.equal(IdleCheckpoints.start(memory, ''), undefined);
    const rollback = open('pragma journal_mode = DELETE');
    assert.equal(IdleCheckpoints.start(rollback.db, rollback.file), undefined);
    const off = open('pragma wal_autocheckpoint = 0');
    assert.equal(IdleCheckpoints.start(off.db, off.file), undefined);
  });

  it('is what the embedded store does after the cache commits', async () => {
    const file = join(tempDir(), 'store.db');
    const store = openSqliteStore(file);
    after(() => store.close());
    const before = statSync(file).size;
    // One message a commit, about three frames each (its row's page, the expiry index's, the
    // sequence's): ~940 in all, which SQLite leaves in the WAL.
    for (let i = 0; i < 290; i++) await store.cache.add([entry(message('idle', { message: 'x'.repeat(200) }))]);
    assert.equal(statSync(file).size, before);
    await until(() => statSync(file).size >= before + 100_000, 'the WAL copied into the file', { timeoutMs: 3_000 });
  });
});
