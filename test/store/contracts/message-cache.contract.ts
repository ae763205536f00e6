import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageJson, type Message } from '../../../src/model/message.js';
import type { MessageCache } from '../../../src/store/message-cache.js';
import { entry, gapOf, idOf, ids, message, now } from './cache-messages.js';
import { closedAfter, type Open, type SuiteOptions } from './instances.js';
import { describeSharedMessageCache } from './shared-message-cache.contract.js';

export interface CacheSuiteOptions {
  /** Why the store does not look for a batch's ids among those it holds (MongoDB's: see the port's contract); absent where it does. */
  heldIdsUnchecked?: string;
}

/**
 * The contract of the MessageCache port (src/store/message-cache.ts), for every backend:
 * a runner calls this with the backend's factory. Each case opens its own fresh database.
 */
export function describeMessageCache(name: string, open: Open<MessageCache>, options: SuiteOptions & CacheSuiteOptions): void {
  describe(`message cache contract — ${name}`, () => {
    const opened = closedAfter(open);
    const create = async (): Promise<MessageCache> => (await opened()).instance;

    it('add returns increasing commit sequence numbers in order, within a topic', async () => {
      const cache = await create();
      const first = [message('a'), message('a')];
      const { seqs } = await cache.add(first.map((m) => entry(m)));
      const next = message('a');
      const { seqs: more } = await cache.add([entry(next)]);
      assert.equal(seqs.length, 2);
      assert.ok((seqs[0] as number) < (seqs[1] as number) && (seqs[1] as number) < (more[0] as number));
      const many = Array.from({ length: 150 }, () => message('a'));
      const { seqs: manySeqs } = await cache.add(many.map((m) => entry(m)));
      assert.equal(manySeqs.length, 150);
      assert.ok(manySeqs.every((seq, i) => seq > (i === 0 ? (more[0] as number) : (manySeqs[i - 1] as number))));
      assert.deepEqual(await ids(cache, 'a', { kind: 'all' }), [...first, next, ...many].map((m) => m.id));
    });

    it('a batch holding an id twice fails and leaves none of its entries', async () => {
      const cache = await create();
      const held = message('atomic');
      await cache.add([entry(held)]);
      const [fresh, twice] = [message('atomic'), message('atomic')];
      await assert.rejects(cache.add([entry(fresh), entry(twice), entry(twice)]), 'an id twice in one batch fails it');
      assert.deepEqual(await ids(cache, 'atomic', { kind: 'all' }), [held.id]);
      assert.equal(await cache.count(), 1);
      await cache.add([entry(fresh)]);
      assert.deepEqual(await ids(cache, 'atomic', { kind: 'id', id: held.id }), [fresh.id], 'the failed batch left no trace of its ids');
    });

    it('a batch holding an id the cache holds fails and leaves none of its entries', { skip: options.heldIdsUnchecked }, async () => {
      const cache = await create();
      const held = message('atomic');
      await cache.add([entry(held)]);
      await assert.rejects(cache.add([entry(message('atomic')), entry(held)]), 'an id already held fails the batch');
      assert.deepEqual(await ids(cache, 'atomic', { kind: 'all' }), [held.id]);
      assert.equal(await cache.count(), 1);
    });

    it('replay honours since: all, latest, none, time and id (unknown id means all)', async () => {
      const cache = await create();
      const [m1, m2, m3] = [message('t', { time: now - 100 }), message('t', { time: now - 50 }), message('t')];
      await cache.add([m1, m2, m3].map((m) => entry(m)));
      await cache.add([entry(message('other'))]);
      assert.deepEqual(await ids(cache, 't', { kind: 'all' }), [m1.id, m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'latest' }), [m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'none' }), []);
      assert.deepEqual(await ids(cache, 't', { kind: 'time', time: now - 60 }), [m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'id', id: m1.id }), [m2.id, m3.id]);
      assert.deepEqual(await ids(cache, 't', { kind: 'id', id: 'nosuchid0000' }), [m1.id, m2.id, m3.id]);
    });

    it('scheduled messages appear only with scheduled=true, and release hands each over once, after newer commits', async () => {
      const cache = await create();
      const later = message('s', { time: now + 30 });
      const due = message('s', { time: now - 1 });
      await cache.add([entry(later, false), entry(due, false)]);
      const newer = message('s');
      const { seqs: [newerSeq] } = await cache.add([entry(newer)]);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }), [newer.id]);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }, true), [due.id, newer.id, later.id]);
      const released = await cache.release([due.id]);
      assert.deepEqual(released.map((e) => e.head.id), [due.id]);
      assert.equal(released[0]?.json, messageJson(due));
      assert.ok((released[0]?.seq ?? 0) > (newerSeq ?? Infinity), 'a released message takes a fresh commit sequence number');
      assert.deepEqual(await cache.release([due.id, 'nosuchid0000']), []);
      assert.deepEqual(await ids(cache, 's', { kind: 'all' }), [due.id, newer.id]);
      assert.deepEqual(await ids(cache, 's', { kind: 'id', id: newer.id }), [due.id], 'since=<newer> sees the message released after it');
    });

    it('a message or delete event with a sequence id replaces the scheduled messages waiting under it', async () => {
      const cache = await create();
      const first = message('r', { time: now + 60, sequence_id: 'job' });
      const elsewhere = message('r2', { time: now + 60, sequence_id: 'job' });
      const delivered = message('r', { sequence_id: 'job' });
      assert.deepEqual((await cache.add([entry(delivered), entry(first, false), entry(elsewhere, false)])).replaced, []);
      const second = message('r', { time: now + 90, sequence_id: 'job' });
      assert.deepEqual((await cache.add([entry(second, false)])).replaced, [first.id]);
      assert.deepEqual(await ids(cache, 'r', { kind: 'all' }, true), [delivered.id, second.id], 'the delivered one stays');
      const clear = message('r', { event: 'message_clear', sequence_id: 'job' });
      assert.deepEqual((await cache.add([entry(clear)])).replaced, [], 'clearing does not cancel');
      const del = message('r', { event: 'message_delete', sequence_id: 'job' });
      assert.deepEqual((await cache.add([entry(del)])).replaced, [second.id]);
      assert.deepEqual(await cache.release([second.id]), [], 'a deleted message is never delivered');
      assert.deepEqual(await ids(cache, 'r2', { kind: 'all' }, true), [elsewhere.id], 'other topics keep theirs');
      const waiting = message('r3', { time: now + 60, sequence_id: 'one' });
      const replacing = message('r3', { sequence_id: 'one' });
      const { replaced } = await cache.add([entry(message('r3')), entry(waiting, false), entry(replacing)]);
      assert.deepEqual(replaced, [waiting.id], 'one batch: the scheduled message before its replacement is replaced');
      assert.equal((await ids(cache, 'r3', { kind: 'all' }, true)).length, 2);
    });

    it('replay keeps the newest messages that fit maxBytes and reports truncation', async () => {
      const cache = await create();
      const all = Array.from({ length: 10 }, () => message('cap'));
      await cache.add(all.map((m) => entry(m)));
      const size = Buffer.byteLength(messageJson(all[0] as Message));
      const replay = await cache.replay({ topic: 'cap', since: { kind: 'all' }, scheduled: false, maxBytes: size * 3 + 1 });
      assert.equal(replay.truncated, true);
      assert.equal(replay.bytes, size * 3);
      assert.deepEqual(replay.json.map(idOf), all.slice(-3).map((m) => m.id));
      assert.equal(replay.json[0], messageJson(all[7] as Message));
    });

    it('replay within a small maxBytes: nothing past it, truncated when anything was left out (a visitor with little bandwidth left)', async () => {
      const cache = await create();
      const all = Array.from({ length: 1200 }, () => message('small'));
      for (let i = 0; i < all.length; i += 200) await cache.add(all.slice(i, i + 200).map((m) => entry(m)));
      const size = Buffer.byteLength(messageJson(all[1199] as Message));
      const query = { topic: 'small', scheduled: false } as const;
      const none = await cache.replay({ ...query, since: { kind: 'all' }, maxBytes: 0 });
      assert.deepEqual([none.json, none.bytes, none.truncated], [[], 0, true]);
      const one = await cache.replay({ ...query, since: { kind: 'id', id: (all[0] as Message).id }, maxBytes: size + 1 });
      assert.deepEqual([one.json.map(idOf), one.bytes, one.truncated], [[(all[1199] as Message).id], size, true]);
      const latest = await cache.replay({ ...query, since: { kind: 'latest' }, maxBytes: size - 1 });
      assert.deepEqual([latest.json, latest.truncated], [[], true], 'the newest alone does not fit');
      const empty = await cache.replay({ topic: 'nothing-here', since: { kind: 'all' }, scheduled: false, maxBytes: 0 });
      assert.deepEqual([empty.json, empty.truncated], [[], false], 'an empty topic fits any allowance');
    });

    it('replay of thousands of messages of one second keeps commit order, from since=id too, and caps at the newest', async () => {
      const cache = await create();
      const all = Array.from({ length: 2500 }, () => message('many', { message: 'same size' }));
      for (let i = 0; i < all.length; i += 500) await cache.add(all.slice(i, i + 500).map((m) => entry(m)));
      const allIds = all.map((m) => m.id);
      assert.deepEqual(await ids(cache, 'many', { kind: 'all' }), allIds);
      assert.deepEqual(await ids(cache, 'many', { kind: 'id', id: allIds[99] as string }), allIds.slice(100));
      const size = Buffer.byteLength(messageJson(all[0] as Message));
      const capped = await cache.replay({ topic: 'many', since: { kind: 'all' }, scheduled: false, maxBytes: size * 1700 + size / 2 });
      assert.equal(capped.truncated, true);
      assert.deepEqual(capped.json.map(idOf), allIds.slice(-1700));
    });

    it('replay names the replayed messages committed after the live position', async () => {
      const cache = await create();
      const [a, b, c] = [message('live'), message('live'), message('live')];
      const { seqs } = await cache.add([entry(a), entry(b), entry(c)]);
      const query = { topic: 'live', since: { kind: 'all' }, scheduled: false, maxBytes: 1e9 } as const;
      assert.deepEqual((await cache.replay({ ...query, livePosition: seqs[0] as number })).maybeLive, [b.id, c.id]);
      assert.deepEqual((await cache.replay({ ...query, livePosition: seqs[2] as number })).maybeLive, []);
      const newest = await cache.replay({ ...query, maxBytes: Buffer.byteLength(messageJson(c)), livePosition: seqs[0] as number });
      assert.deepEqual([newest.json.map(idOf), newest.maybeLive], [[c.id], [c.id]], 'only what the replay holds');
      assert.deepEqual((await cache.replay({ ...query, livePosition: 0, since: { kind: 'id', id: b.id } })).maybeLive, [c.id]);
    });

    it('prune deletes expired messages; replay never returns them', async () => {
      const cache = await create();
      const old = message('p', { expires: now - 1 });
      const fresh = message('p');
      await cache.add([entry(old), entry(fresh)]);
      assert.deepEqual(await ids(cache, 'p', { kind: 'all' }), [fresh.id]);
      assert.equal(await cache.prune(now), 1);
      assert.deepEqual([...(await cache.topics())], ['p']);
    });

    it('trim drops the oldest published messages beyond the newest it keeps, by time then commit order', async () => {
      const cache = await create();
      const late = message('trim', { time: now - 10 });
      const [a, b, c] = [message('trim', { time: now - 30 }), message('trim', { time: now - 20 }), message('trim', { time: now - 20 })];
      const waiting = message('trim', { time: now + 600 });
      const other = message('trim-other', { time: now - 40 });
      await cache.add([entry(late), entry(a), entry(b), entry(c), entry(waiting, false), entry(other)]);
      assert.deepEqual(await cache.trim('trim', 2), { count: 2, newest: now - 20 });
      assert.deepEqual(await ids(cache, 'trim', { kind: 'all' }, true), [c.id, late.id, waiting.id], 'scheduled messages neither count nor go');
      assert.deepEqual(await cache.trim('trim', 2), { count: 0, newest: 0 });
      assert.deepEqual(await cache.trim('trim', 0), { count: 2, newest: now - 10 });
      assert.deepEqual(await ids(cache, 'trim', { kind: 'all' }), []);
      assert.deepEqual(await ids(cache, 'trim-other', { kind: 'all' }), [other.id], 'other topics keep theirs');
      assert.deepEqual(await cache.trim('nothing-here', 1), { count: 0, newest: 0 });
    });

    it('replay reports a gap when messages it would have returned were pruned, by time and by id', async () => {
      const cache = await create();
      const [gone, kept, newest] = [message('gap-p', { time: now - 100, expires: now - 1 }), message('gap-p', { time: now - 50 }), message('gap-p')];
      await cache.add([gone, kept, newest].map((m) => entry(m)));
      await cache.add([entry(message('gap-none', { time: now - 100 }))]);
      assert.equal(await cache.prune(now), 1);
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'time', time: now - 200 }), true, 'since a time before the pruned message');
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'time', time: now - 100 }), true, 'since the second of the pruned message');
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'time', time: now - 60 }), false, 'since a time after it: complete');
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'id', id: gone.id }), true, 'since the pruned message itself');
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'id', id: kept.id }), false, 'since a message after it: complete');
      assert.equal(await gapOf(cache, 'gap-p', { kind: 'id', id: 'nosuchid0000' }), true, 'an unknown id, with a drop recorded');
      assert.equal(await gapOf(cache, 'gap-none', { kind: 'id', id: 'nosuchid0000' }), false, 'an unknown id, nothing dropped');
      assert.equal(await gapOf(cache, 'gap-none', { kind: 'time', time: now - 200 }), false, 'nothing dropped');
      for (const since of [{ kind: 'all' }, { kind: 'latest' }, { kind: 'none' }] as const) assert.equal(await gapOf(cache, 'gap-p', since), false, `since=${since.kind} asks for what is kept`);
      assert.deepEqual(await ids(cache, 'gap-p', { kind: 'id', id: gone.id }), [kept.id, newest.id], 'then the replay of what is kept');
    });

    it('replay reports a gap when messages it would have returned were trimmed, in commit order within a second', async () => {
      const cache = await create();
      const [a, b, c] = [message('gap-t', { time: now - 30 }), message('gap-t', { time: now - 20 }), message('gap-t', { time: now - 10 })];
      const [d, e, f] = [message('gap-s', { time: now - 5 }), message('gap-s', { time: now - 5 }), message('gap-s', { time: now - 5 })];
      await cache.add([a, b, c, d, e, f].map((m) => entry(m)));
      assert.equal((await cache.trim('gap-t', 1)).count, 2);
      assert.equal((await cache.trim('gap-s', 2)).count, 1);
      assert.equal(await gapOf(cache, 'gap-t', { kind: 'id', id: a.id }), true);
      assert.equal(await gapOf(cache, 'gap-t', { kind: 'id', id: c.id }), false);
      assert.equal(await gapOf(cache, 'gap-t', { kind: 'time', time: now - 25 }), true);
      assert.equal(await gapOf(cache, 'gap-t', { kind: 'time', time: now - 15 }), false);
      assert.equal(await gapOf(cache, 'gap-s', { kind: 'id', id: d.id }), true, 'the trimmed one');
      assert.equal(await gapOf(cache, 'gap-s', { kind: 'id', id: e.id }), false, 'committed after the trimmed one in the same second');
      assert.deepEqual(await ids(cache, 'gap-s', { kind: 'id', id: d.id }), [e.id, f.id]);
    });

    it('dropAttachments removes the attachment entry and keeps the rest of the JSON', async () => {
      const cache = await create();
      const attachment = { name: 'a.txt', type: 'text/plain', size: 3, expires: now + 60, url: 'http://h/file/x.txt' };
      const withFile = message('d', { message: 'You received a file: a.txt', attachment });
      const other = message('d', { attachment: { ...attachment, name: 'b.txt' } });
      await cache.add([entry(withFile), entry(other)]);
      await cache.dropAttachments([withFile.id, 'unknown']);
      const [first, second] = (await cache.replay({ topic: 'd', since: { kind: 'all' }, scheduled: false, maxBytes: 1e9 })).json;
      assert.equal(first, messageJson({ ...withFile, attachment: undefined }));
      assert.equal(second, messageJson(other));
    });

    it('count holds every message, scheduled ones included, and drops pruned ones', async () => {
      const cache = await create();
      assert.equal(await cache.count(), 0);
      await cache.add([entry(message('c1')), entry(message('c2', { expires: now - 1 })), entry(message('c1', { time: now + 60 }), false)]);
      assert.equal(await cache.count(), 3);
      await cache.prune(now);
      assert.equal(await cache.count(), 2);
    });

    it('import keeps ids, times and order, skips ids held, and comes before later commits', async () => {
      const cache = await create();
      const [old1, old2] = [message('imp', { time: now - 200 }), message('imp', { time: now - 100 })];
      const waiting = message('imp', { time: now + 600 });
      assert.equal(await cache.import([entry(old1), entry(old2), entry(waiting, false)]), 3);
      const newer = message('imp');
      await cache.add([entry(newer)]);
      assert.equal(await cache.import([entry(old1), entry(old2), entry(waiting, false), entry(old2)]), 0, 'a second import adds nothing');
      assert.deepEqual(await ids(cache, 'imp', { kind: 'all' }), [old1.id, old2.id, newer.id]);
      assert.deepEqual(await ids(cache, 'imp', { kind: 'id', id: old1.id }), [old2.id, newer.id]);
      assert.deepEqual(await ids(cache, 'imp', { kind: 'all' }, true), [old1.id, old2.id, newer.id, waiting.id]);
      const [replayed] = (await cache.replay({ topic: 'imp', since: { kind: 'latest' }, scheduled: false, maxBytes: 1e9 })).json;
      assert.equal(replayed, messageJson(newer));
      assert.equal((await cache.release([waiting.id]))[0]?.json, messageJson(waiting), 'an imported scheduled message is released as any other');
      const partly = message('imp', { time: now - 50 });
      assert.equal(await cache.import([entry(old1), entry(partly)]), 1, 'a run cut short is completed');
      assert.equal(await cache.count(), 5);
    });

    it('the imported total counts beside added stats, once however often it is set', async () => {
      const cache = await create();
      await cache.addStats(5);
      await cache.setImportedStats(1000);
      await cache.setImportedStats(1000);
      assert.equal(await cache.loadStats(), 1005);
      assert.equal(await cache.addStats(2), 1007);
    });

    it('waiting counts the scheduled messages not yet due; bytes is the size held', async () => {
      const cache = await create();
      assert.equal(await cache.waiting(), 0);
      const later = message('w', { time: now + 60 });
      await cache.add([entry(later, false), entry(message('w', { time: now + 90 }), false), entry(message('w'))]);
      assert.equal(await cache.waiting(), 2);
      await cache.release([later.id]);
      assert.equal(await cache.waiting(), 1);
      // How it grows is tested per backend: FerretDB's dataSize lags behind what MongoDB reports.
      const bytes = await cache.bytes();
      assert.ok(Number.isInteger(bytes) && bytes > 0, `bytes ${bytes}`);
    });

    it('stats add up: each addition answers the new total', async () => {
      const cache = await create();
      assert.equal(await cache.loadStats(), 0);
      assert.equal(await cache.addStats(42), 42);
      assert.equal(await cache.addStats(0), 42);
      assert.equal(await cache.addStats(8), 50);
      assert.equal(await cache.loadStats(), 50);
    });

    it('replayed messages are the stored JSON, counted in UTF-8 bytes', async () => {
      const cache = await create();
      const m = message('f', { title: 'Tür', priority: 4, tags: ['a', 'b'], message: 'Glocke 🔔' });
      await cache.add([entry(m)]);
      const replay = await cache.replay({ topic: 'f', since: { kind: 'all' }, scheduled: false, maxBytes: 1e9 });
      const json = messageJson(m);
      const { json: replayed, bytes, truncated, maybeLive, lines } = replay;
      assert.deepEqual({ json: replayed, bytes, truncated, maybeLive }, { json: [json], bytes: json.length + 3, truncated: false, maybeLive: [] }, 'ü takes 2 bytes, 🔔 4 (2 UTF-16 units)');
      // Through a thread (one backend's test) the Buffer arrives as a Uint8Array.
      if (lines) assert.equal(Buffer.from(lines).toString(), `${json}\n`, 'the same as JSON lines');
    });

    describeSharedMessageCache(opened, options);
  });
}
