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

const meta = (expires = 2000): { type: string; name: string; expires: number } => ({ type: 'text/plain', name: 'a.txt', expires });
/** A file limit only. */
const upTo = (limit: number) => (bytes: number, size: number): boolean => size + bytes <= limit;

describe('attachment files', () => {
  it('keep an upload once committed, with its size per owner and in total, and read it whole or by range', async () => {
    const dir = tempDir();
    const store = await AttachmentFiles.open(dir);
    const upload = store.create('abc123', '1.2.3.4', upTo(100));
    upload.write(Buffer.from('hello '));
    upload.write(Buffer.from('world'));
    assert.equal(store.stat('abc123'), undefined, 'invisible until committed');
    assert.deepEqual([store.usage('1.2.3.4'), store.total], [11, 11], 'counted while it is written');
    assert.deepEqual(await upload.commit(meta()), { id: 'abc123', size: 11, type: 'text/plain', name: 'a.txt', owner: '1.2.3.4', expires: 2000 });
    assert.deepEqual([store.usage('1.2.3.4'), store.usage('5.6.7.8'), store.total], [11, 0, 11]);
    assert.equal(await bytes(store.read('abc123')), 'hello world');
    assert.equal(await bytes(store.read('abc123', { start: 6, end: 10 })), 'world');
    assert.deepEqual(readdirSync(dir).sort(), ['abc123', 'abc123.json']);
  });

  it('refuse a write past the limit and leave no partial file', async () => {
    const dir = tempDir();
    const store = await AttachmentFiles.open(dir);
    const upload = store.create('big', 'o', upTo(10));
    upload.write(Buffer.alloc(8));
    assert.throws(() => upload.write(Buffer.alloc(3)), TooLarge);
    assert.deepEqual([readdirSync(dir), store.total, store.usage('o'), store.stat('big')], [[], 0, 0, undefined]);
    const dropped = store.create('dropped', 'o', upTo(10));
    dropped.write(Buffer.alloc(5));
    await dropped.abort();
    assert.deepEqual([readdirSync(dir), store.total], [[], 0]);
    assert.throws(() => store.create('../escape', 'o', upTo(10)), /invalid attachment id/);
  });

  it('let uploads running at once see each other\'s bytes', async () => {
    const store = await AttachmentFiles.open(tempDir());
    const ownerLimit = (bytes: number): boolean => store.usage('o') + bytes <= 10;
    const [a, b] = [store.create('a', 'o', ownerLimit), store.create('b', 'o', ownerLimit)];
    a.write(Buffer.alloc(6));
    assert.throws(() => b.write(Buffer.alloc(6)), TooLarge);
    await b.abort();
    a.write(Buffer.alloc(4));
    await a.commit(meta());
    assert.deepEqual([store.usage('o'), store.total], [10, 10]);
  });

  it('expire files, freeing their owner\'s share, and remove single ones', async () => {
    const store = await AttachmentFiles.open(tempDir());
    for (const [id, expires] of [['a', 1000], ['b', 3000], ['c', 1500]] as const) {
      const upload = store.create(id, 'owner', upTo(100));
      upload.write(Buffer.alloc(10));
      await upload.commit(meta(expires));
    }
    assert.deepEqual((await store.expire(1500)).sort(), ['a', 'c']);
    assert.deepEqual([store.usage('owner'), store.total], [10, 10]);
    await store.remove('b');
    assert.deepEqual([store.usage('owner'), store.total, store.stat('b')], [0, 0, undefined]);
  });

  it('find what is stored when opened again, and clear leftovers of interrupted uploads', async () => {
    const dir = tempDir();
    const first = await AttachmentFiles.open(dir);
    const upload = first.create('kept', '9.9.9.9', upTo(100));
    upload.write(Buffer.from('data'));
    await upload.commit(meta());
    writeFileSync(join(dir, 'half.part'), 'x');
    writeFileSync(join(dir, 'orphan'), 'no metadata');
    writeFileSync(join(dir, 'lost.json'), JSON.stringify({ id: 'lost', size: 1, type: 'x', owner: 'y', expires: 1 }));
    const second = await AttachmentFiles.open(dir);
    assert.deepEqual([second.stat('kept')?.size, second.usage('9.9.9.9'), second.total], [4, 4, 4]);
    assert.deepEqual(readdirSync(dir).sort(), ['kept', 'kept.json']);
    assert.equal(existsSync(join(dir, 'orphan')), false);
  });
});
