import assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AttachmentStore } from '../../src/store/attachment-store.js';
import { AttachmentFiles } from '../../src/store/files/attachment-files.js';
import { leftoverAgeMs } from '../../src/store/files/leftovers.js';
import { tempDir } from '../support/server.js';
import { describeAttachmentStore } from './contracts/attachment-store.contract.js';

describeAttachmentStore('files', async (location) => {
  const dir = location ?? tempDir();
  const instance = await AttachmentFiles.open(dir);
  return { instance, location: dir, close: () => instance.close() };
});

const indexFiles = ['index.db', 'index.db-shm', 'index.db-wal'];
const meta = { type: 'text/plain', name: 'a.txt', expires: 2000 };

async function open(dir: string): Promise<AttachmentStore> {
  const store = await AttachmentFiles.open(dir);
  after(() => store.close());
  return store;
}

/** Sets a file's times `ageMs` into the past. */
function age(path: string, ageMs: number): void {
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

describe('attachment files', () => {
  it('hold a file\'s bytes as <id>, an upload in progress as <id>.part, the metadata in the index', async () => {
    const dir = tempDir();
    const store = await open(dir);
    const upload = await store.create('abc123', 'o', () => true);
    upload.write(Buffer.from('hello'));
    assert.deepEqual(readdirSync(dir).sort(), ['abc123.part', ...indexFiles]);
    await upload.commit(meta);
    assert.deepEqual(readdirSync(dir).sort(), ['abc123', ...indexFiles]);
    await assert.rejects(store.create('../escape', 'o', () => true), /invalid attachment id/);
  });

  it('opening clears parts and unindexed bytes left untouched for the leftover age, and keeps younger ones (another process\'s)', async () => {
    const dir = tempDir();
    const first = await open(dir);
    const kept = await first.create('kept', 'o', () => true);
    kept.write(Buffer.from('data'));
    await kept.commit(meta);
    age(join(dir, 'kept'), 2 * leftoverAgeMs);
    for (const name of ['dead.part', 'deadorphan']) {
      writeFileSync(join(dir, name), 'x');
      age(join(dir, name), leftoverAgeMs + 60_000);
    }
    writeFileSync(join(dir, 'live.part'), 'x');
    writeFileSync(join(dir, 'committing'), 'renamed, not yet indexed');
    writeFileSync(join(dir, 'not-an-id.txt'), 'left alone');
    const second = await open(dir);
    assert.deepEqual(readdirSync(dir).sort(), ['committing', ...indexFiles, 'kept', 'live.part', 'not-an-id.txt']);
    assert.deepEqual([(await second.stat('kept'))?.size, await second.usage('o'), await second.total()], [4, 4, 4]);
  });

  it('opening takes in the files of the metadata-file layout and drops metadata without bytes', async () => {
    const dir = tempDir();
    const old = { id: 'older', size: 3, type: 'text/plain', name: 'o.txt', owner: '9.9.9.9', expires: 5000 };
    writeFileSync(join(dir, 'older'), 'abc');
    writeFileSync(join(dir, 'older.json'), JSON.stringify(old));
    writeFileSync(join(dir, 'lost.json'), JSON.stringify({ ...old, id: 'lost' }));
    const store = await open(dir);
    assert.deepEqual([await store.stat('older'), await store.usage('9.9.9.9'), await store.stat('lost')], [old, 3, undefined]);
    assert.deepEqual(readdirSync(dir).sort(), [...indexFiles, 'older']);
    assert.equal(existsSync(join(dir, 'lost.json')), false);
  });
});
