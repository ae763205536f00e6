import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { messageJson, type Message } from '../../src/model/message.js';
import type { MessageCache } from '../../src/store/message-cache.js';
import { SqliteMessageCache } from '../../src/store/sqlite/message-cache.js';
import { tempDir } from '../support/server.js';

/** The contract of the MessageCache port, run against every implementation. */
const implementations: [string, () => MessageCache][] = [
  ['sqlite file', () => new SqliteMessageCache(join(tempDir(), 'cache.db'))],
  ['sqlite memory', () => new SqliteMessageCache('')],
];

const now = Math.floor(Date.now() / 1000);
let counter = 0;
function message(topic: string, extra: Partial<Message> = {}): Message {
  counter++;
  return { id: `msg${String(counter).padStart(9, '0')}`, time: now, expires: now + 3600, event: 'message', topic, message: `m${counter}`, ...extra };
}
const entry = (m: Message, published = true): { message: Message; json: string; published: boolean } => ({ message: m, json: messageJson(m), published });
const ids = async (cache: MessageCache, topic: string, since: Parameters<MessageCache['replay']>[0]['since'], scheduled = false): Promise<string[]> =>
  (await cache.replay({ topic, since, scheduled, maxBytes: 1e9 })).messages.map((e) => e.head.id);

for (const [name, create] of implementations) {
  describe(`message cache contract — ${name}`, () => {
    it('add returns increasing commit sequence numbers in order', async () => {
      const cache = create();
      const seqs = await cache.add([entry(message('a')), entry(message('a'))]);
      const more = await cache.add([entry(message('b'))]);
      assert.equal(seqs.length, 2);
      assert.ok((seqs[0] as number) < (seqs[1] as number) && (seqs[1] as number) < (more[0] as number));
      await cache.close();
    });

    it('replay honours since: all, latest, none, time and id (unknown id means all)', async () => {
      const cache = create();
      const [m1, m2, m3] = [message('t', { time: now - 100 }), message('t', { time: now - 50 }), message('t')];
      await cache.add([m1, m2, m3].map((m) => entry(m)));
      await cache.add([entry(message('other'))]);
      assert.deepEqual(await ids(cache, 't', { kind: 'all' }), [m1.id, m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'latest' }), [m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'none' }), []);
      assert.deepEqual(await ids(cache, 't', { kind: 'time', time: now - 60 }), [m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'id', id: m1.id }), [m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'id', id: 'nosuchid0000' }), [m1.id, m2.id, m3.id]);
      await cache.close();
    });

    it('scheduled messages appear only with scheduled=true, and takeDue hands each over once', async () => {
      const cache = create();
      const later = message('s', { time: now + 30 });
      const due = message('s', { time: now - 1 });
      await cache.add([entry(later, false), entry(due, false)]);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }), []);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }, true), [due.id, later.id]);
      assert.deepEqual((await cache.takeDue(now)).map((e) => e.head.id), [due.id]);
      assert.deepEqual(await cache.takeDue(now), []);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }), [due.id]);
      await cache.close();
    });

    it('replay keeps the newest messages that fit maxBytes and reports truncation', async () => {
      const cache = create();
      const all = Array.from({ length: 10 }, () => message('cap'));
      await cache.add(all.map((m) => entry(m)));
      const size = Buffer.byteLength(messageJson(all[0] as Message));
      const replay = await cache.replay({ topic: 'cap', since: { kind: 'all' }, scheduled: false, maxBytes: size * 3 + 1 });
      assert.equal(replay.truncated, true);
      assert.deepEqual(replay.messages.map((e) => e.head.id), all.slice(-3).map((m) => m.id));
      assert.equal(replay.messages[0]?.json, messageJson(all[7] as Message));
      await cache.close();
    });

    it('prune deletes expired messages; replay never returns them', async () => {
      const cache = create();
      const old = message('p', { expires: now - 1 });
      const fresh = message('p');
      await cache.add([entry(old), entry(fresh)]);
      assert.deepEqual(await ids(cache, 'p', { kind: 'all' }), [fresh.id]);
      assert.equal(await cache.prune(now), 1);
      assert.deepEqual([...(await cache.topics())].includes('p'), true);
      await cache.close();
    });

    it('stats persist', async () => {
      const cache = create();
      assert.equal(await cache.loadStats(), 0);
      await cache.saveStats(42);
      assert.equal(await cache.loadStats(), 42);
      await cache.close();
    });

    it('replayed events carry the filter fields and the stored JSON', async () => {
      const cache = create();
      const m = message('f', { title: 'T', priority: 4, tags: ['a', 'b'] });
      await cache.add([entry(m)]);
      const [event] = (await cache.replay({ topic: 'f', since: { kind: 'all' }, scheduled: false, maxBytes: 1e9 })).messages;
      assert.deepEqual(event?.head, { id: m.id, time: m.time, event: 'message', topic: 'f', message: m.message, title: 'T', priority: 4, tags: ['a', 'b'] });
      assert.equal(event?.json, messageJson(m));
      await cache.close();
    });
  });
}
