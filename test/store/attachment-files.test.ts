import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { TooLarge } from '../../src/store/attachment-store.js';
import { AttachmentFiles } from '../../src/store/files/attachment-files.js';
import { tempDir } from '../support/server.js';

async function bytes(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const meta = (owner: string, expires = 2000): { type: string; name: string; owner: string; expires: number } => ({ type: 'text/plain', name: 'a.txt', owner, expires });

describe('attachment files', () => {
  it('keep an upload once committed, with its size per owner and in total, and read it whole or by range', async () => {
    const dir = tempDir();
    const store = await AttachmentFiles.open(dir);
    const upload = store.create('abc123', 100);
    upload.write(Buffer.from('hello '));
    upload.write(Buffer.from('world'));
    assert.equal(store.stat('abc123'), undefined, 'invisible until committed');
    assert.deepEqual(await upload.commit(meta('1.2.3.4')), { id: 'abc123', size: 11, type: 'text/plain', name: 'a.txt', owner: '1.2.3.4', expires: 2000 });
    assert.deepEqual([store.usage('1.2.3.4'), store.usage('5.6.7.8'), store.total], [11, 0, 11]);
    assert.equal(await bytes(store.read('abc123')), 'hello world');
    assert.equal(await bytes(store.read('abc123', { start: 6, end: 10 })), 'world');
    assert.deepEqual(readdirSync(dir).sort(), ['abc123', 'abc123.json']);
  });

  it('refuse a write past the limit and leave no partial file', async () => {
    const dir = tempDir();
    const store = await AttachmentFiles.open(dir);
    const upload = store.create('big', 10);
    upload.write(Buffer.alloc(8));
    assert.throws(() => upload.write(Buffer.alloc(3)), TooLarge);
    assert.deepEqual([readdirSync(dir), store.total, store.stat('big')], [[], 0, undefined]);
    const dropped = store.create('dropped', 10);
    dropped.write(Buffer.alloc(5));
    await dropped.abort();
    assert.deepEqual(readdirSync(dir), []);
    assert.throws(() => store.create('../escape', 10), /invalid attachment id/);
  });

  it('expire files, freeing their owner\'s share, and remove single ones', async () => {
    const store = await AttachmentFiles.open(tempDir());
    for (const [id, expires] of [['a', 1000], ['b', 3000], ['c', 1500]] as const) {
      const upload = store.create(id, 100);
      upload.write(Buffer.alloc(10));
      await upload.commit(meta('owner', expires));
    }
    assert.deepEqual((await store.expire(1500)).sort(), ['a', 'c']);
    assert.deepEqual([store.usage('owner'), store.total], [10, 10]);
    await store.remove('b');
    assert.deepEqual([store.usage('owner'), store.total, store.stat('b')], [0, 0, undefined]);
  });

  it('find what is stored when opened again, and clear leftovers of interrupted uploads', async () => {
    const dir = tempDir();
    const first = await AttachmentFiles.open(dir);
    const upload = first.create('kept', 100);
    upload.write(Buffer.from('data'));
    await upload.commit(meta('9.9.9.9'));
    writeFileSync(join(dir, 'half.part'), 'x');
    writeFileSync(join(dir, 'orphan'), 'no metadata');
    writeFileSync(join(dir, 'lost.json'), JSON.stringify({ id: 'lost', size: 1, type: 'x', owner: 'y', expires: 1 }));
    const second = await AttachmentFiles.open(dir);
    assert.deepEqual([second.stat('kept')?.size, second.usage('9.9.9.9'), second.total], [4, 4, 4]);
    assert.deepEqual(readdirSync(dir).sort(), ['kept', 'kept.json']);
    assert.equal(existsSync(join(dir, 'orphan')), false);
  });
});
