import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { TooLarge, type AllowWrite, type AttachmentStore, type StoredFile } from '../../../src/store/attachment-store.js';
import { closedAfter, pair, type Open } from './instances.js';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const meta = (expires = 2000): { type: string; name: string; expires: number } => ({ type: 'text/plain', name: 'a.txt', expires });
/** A file size limit only. */
const upTo = (limit: number): AllowWrite => (bytes, size) => size + bytes <= limit;

/** Stores `content` as file `id` of `owner`. */
async function put(store: AttachmentStore, id: string, owner: string, content: string | Buffer, expires = 2000): Promise<StoredFile> {
  const upload = await store.create(id, owner, upTo(1e9));
  upload.write(Buffer.from(content));
  return upload.commit(meta(expires));
}

const sums = async (store: AttachmentStore, owner: string): Promise<[number, number]> => [await store.usage(owner), await store.total()];

/**
 * The contract of the AttachmentStore port (src/store/attachment-store.ts), for every
 * backend: a runner calls this with the backend's factory. Each case opens its own fresh
 * store; the cases of two instances open the second on the first one's location.
 */
export function describeAttachmentStore(name: string, open: Open<AttachmentStore>): void {
  describe(`attachment store contract — ${name}`, () => {
    const opened = closedAfter(open);
    const store = async (): Promise<AttachmentStore> => (await opened()).instance;

    it('a file is visible once committed, whole, and reads whole or by range; its bytes count while they are written', async () => {
      const s = await store();
      const upload = await s.create('abc123', '1.2.3.4', upTo(100));
      upload.write(Buffer.from('hello '));
      upload.write(Buffer.from('world'));
      assert.equal(await s.stat('abc123'), undefined, 'invisible until committed');
      assert.deepEqual([upload.size, upload.usage, await sums(s, '1.2.3.4')], [11, { owner: 11, total: 11 }, [11, 11]]);
      const file = { id: 'abc123', size: 11, type: 'text/plain', name: 'a.txt', owner: '1.2.3.4', expires: 2000 };
      assert.deepEqual(await upload.commit(meta()), file);
      assert.deepEqual(await s.stat('abc123'), file);
      assert.deepEqual([...(await sums(s, '1.2.3.4')), await s.usage('5.6.7.8')], [11, 11, 0]);
      assert.equal(await text(await s.read('abc123')), 'hello world');
      assert.equal(await text(await s.read('abc123', { start: 6, end: 10 })), 'world');
      assert.equal(await text(await s.read('abc123', { start: 0, end: 0 })), 'h');
    });

    it('a write past the upload\'s limit is refused and, like an abort, leaves nothing', async () => {
      const s = await store();
      const big = await s.create('big', 'o', upTo(10));
      big.write(Buffer.alloc(8));
      assert.throws(() => big.write(Buffer.alloc(3)), TooLarge);
      await big.abort();
      assert.deepEqual([await s.stat('big'), ...(await sums(s, 'o'))], [undefined, 0, 0]);
      const dropped = await s.create('dropped', 'o', upTo(10));
      dropped.write(Buffer.alloc(5));
      await dropped.abort();
      assert.deepEqual([await s.stat('dropped'), ...(await sums(s, 'o'))], [undefined, 0, 0]);
    });

    it('an upload\'s usage starts from the committed files and counts the uploads running beside it as their bytes arrive', async () => {
      const s = await store();
      await put(s, 'kept', 'o', Buffer.alloc(3));
      await put(s, 'other', 'p', Buffer.alloc(2));
      const ownerLimit: AllowWrite = (bytes, _size, usage) => usage.owner + bytes <= 10;
      const [a, b] = [await s.create('a', 'o', ownerLimit), await s.create('b', 'o', ownerLimit)];
      assert.deepEqual(a.usage, { owner: 3, total: 5 });
      a.write(Buffer.alloc(4));
      assert.deepEqual(b.usage, { owner: 7, total: 9 });
      assert.throws(() => b.write(Buffer.alloc(4)), TooLarge);
      await b.abort();
      a.write(Buffer.alloc(3));
      await a.commit(meta());
      assert.deepEqual(await sums(s, 'o'), [10, 12]);
      const c = await s.create('c', 'o', ownerLimit);
      assert.deepEqual(c.usage, { owner: 10, total: 12 });
      assert.throws(() => c.write(Buffer.alloc(1)), TooLarge);
      await c.abort();
    });

    it('a file committed while another upload runs counts for that upload too', async () => {
      const s = await store();
      const [first, second] = [await s.create('first', 'o', upTo(100)), await s.create('second', 'o', upTo(100))];
      first.write(Buffer.alloc(6));
      await first.commit(meta());
      second.write(Buffer.alloc(1));
      assert.deepEqual(second.usage, { owner: 7, total: 7 });
      await second.abort();
      assert.deepEqual(await sums(s, 'o'), [6, 6]);
    });

    it('expire removes the files expired at its time, freeing their owner\'s share; remove takes one, and an unknown id is no error', async () => {
      const s = await store();
      for (const [id, expires] of [['a', 1000], ['b', 3000], ['c', 1500]] as const) await put(s, id, 'owner', Buffer.alloc(10), expires);
      assert.deepEqual((await s.expire(1500)).sort(), ['a', 'c']);
      assert.deepEqual([await s.stat('a'), await s.stat('c'), ...(await sums(s, 'owner'))], [undefined, undefined, 10, 10]);
      assert.deepEqual(await s.expire(1500), [], 'each expired file once');
      await s.remove('b');
      await s.remove('nosuchfile');
      assert.deepEqual([await s.stat('b'), ...(await sums(s, 'owner'))], [undefined, 0, 0]);
    });

    it('committed files survive closing and reopening; an upload in progress does not', async () => {
      const first = await opened();
      await put(first.instance, 'kept', '9.9.9.9', 'data');
      const cut = await first.instance.create('cut', '9.9.9.9', upTo(100));
      cut.write(Buffer.from('half'));
      await first.close();
      const again = (await opened(first.location)).instance;
      assert.equal((await again.stat('kept'))?.size, 4);
      assert.equal(await text(await again.read('kept')), 'data');
      assert.deepEqual([await again.stat('cut'), ...(await sums(again, '9.9.9.9'))], [undefined, 4, 4]);
    });

    describe('two instances on one backend', () => {
      it('each sees the files the other committed, with their usage; uploads in progress count only where they run', async () => {
        const [a, b] = await pair(opened);
        await put(a, 'froma', 'o', 'from a');
        const upload = await b.create('fromb', 'o', upTo(100));
        assert.deepEqual(upload.usage, { owner: 6, total: 6 }, 'b\'s upload starts from a\'s committed file');
        upload.write(Buffer.from('from b'));
        assert.deepEqual([await sums(a, 'o'), await sums(b, 'o'), await a.stat('fromb')], [[6, 6], [12, 12], undefined]);
        await upload.commit(meta());
        assert.deepEqual([await sums(a, 'o'), await sums(b, 'o')], [[12, 12], [12, 12]]);
        assert.equal((await b.stat('froma'))?.owner, 'o');
        assert.equal(await text(await a.read('fromb')), 'from b');
      });

      it('a file one removes or expires is gone for the other, and expires once', async () => {
        const [a, b] = await pair(opened);
        await put(a, 'removed', 'o', 'x');
        await put(a, 'expired', 'o', 'yy', 1000);
        await b.remove('removed');
        assert.deepEqual(await b.expire(1000), ['expired']);
        assert.deepEqual([await a.stat('removed'), await a.stat('expired'), ...(await sums(a, 'o')), await a.expire(1000)], [undefined, undefined, 0, 0, []]);
      });

      it('opening an instance leaves the other\'s upload in progress whole', async () => {
        const first = await opened();
        const upload = await first.instance.create('busy', 'o', upTo(100));
        upload.write(Buffer.from('before '));
        const second = (await opened(first.location)).instance;
        upload.write(Buffer.from('and after'));
        await upload.commit(meta());
        assert.equal(await text(await second.read('busy')), 'before and after');
        assert.equal((await second.stat('busy'))?.size, 16);
      });
    });
  });
}
