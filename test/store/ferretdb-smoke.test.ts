import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Long, MongoClient, MongoServerError, type Db } from 'mongodb';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';

/**
 * What the MongoDB store (issue 17) relies on, proven against the FerretDB the suite runs
 * (test/support/ferretdb.ts): several clients of one server stand for several Tocsin nodes.
 *
 * Observed of FerretDB v1.24.2 on PostgreSQL 15 (2026-11-23), beyond what these cases assert:
 * - findOneAndUpdate with $inc is not atomic: 4 clients × 25 increments of one counter left
 *   it at 31, and the 100 calls returned only 37 distinct values. Claim numbers with
 *   inserts of unique keys (below) instead.
 * - A capped collection's `max` and `size` are enforced by a cleanup every minute, not at
 *   insert: a capped collection with max 5 held all 20 documents inserted into it.
 * - A tailable awaitData cursor is a poll: each getMore that finds nothing new reruns the
 *   whole query every 10 ms and skips up to the last record it returned, so a poll costs
 *   all documents matched since the cursor opened (a narrow filter, and cursors reopened
 *   from the last position, keep it small), and returns at most batchSize documents.
 *   When that scan outlasts maxAwaitTimeMS the cursor loses its place and rewinds: 16
 *   writers × 150 inserts read with maxAwaitTimeMS 300 gave ~1,800 duplicates; with 5,000,
 *   none.
 * - Records are numbered when FerretDB receives the insert (seconds << 32 | a counter of
 *   the FerretDB process), not when PostgreSQL commits it: with 16 concurrent writers the
 *   tail skipped the 8–21 documents whose insert committed after a later-numbered one it
 *   had already returned. A single writer's documents arrive complete and in order (the
 *   tailing case below); with several writers, the reader must find and fetch gaps by
 *   its own sequence numbers. MongoDB does not skip these (capped-collection visibility).
 */
describe('FerretDB — the MongoDB-wire server of the store tests', { skip: ferretDbSkip() }, () => {
  let ferret: FerretDb;
  let clients: MongoClient[] = [];

  before(async () => {
    ferret = await startFerretDb();
    clients = await Promise.all([1, 2, 3, 4].map(() => MongoClient.connect(ferret.url)));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ferret?.stop();
  });

  /** The same database as every client sees it: `[node1, node2, node3, node4]`. */
  const database = (label: string): Db[] => {
    const name = ferret.databaseName(label);
    return clients.map((c) => c.db(name));
  };

  it('insertMany then find by a compound index — another client reads them in index order', async () => {
    // given: 60 messages over three topics, inserted by one client
    const [writer, reader] = database('index');
    const messages = writer!.collection('messages');
    await messages.createIndex({ topic: 1, seq: 1 }, { name: 'topic_seq' });
    const docs = Array.from({ length: 60 }, (_, seq) => ({ topic: ['a', 'b', 'c'][seq % 3]!, seq, body: `m${seq}` }));
    const inserted = await messages.insertMany(docs);
    assert.equal(inserted.insertedCount, 60);

    // when: another client asks by the index
    const found = await reader!
      .collection('messages')
      .find({ topic: 'b', seq: { $gte: 30 } }, { projection: { _id: 0 } })
      .sort({ seq: 1 })
      .hint('topic_seq')
      .toArray();

    // then
    assert.deepEqual(found, [31, 34, 37, 40, 43, 46, 49, 52, 55, 58].map((seq) => ({ topic: 'b', seq, body: `m${seq}` })));
    const indexes = await reader!.collection('messages').listIndexes().toArray();
    assert.deepEqual(
      indexes.map((i) => [i.name, i.key]),
      [['_id_', { _id: 1 }], ['topic_seq', { topic: 1, seq: 1 }]],
    );
  });

  it('insertOne race on a unique _id — of 4 clients exactly one wins each key, the others get 11000', async () => {
    // given: 4 clients, 40 keys
    const nodes = database('race');
    const keys = Array.from({ length: 40 }, (_, k) => `seq-${k}`);

    // when: for each key, all 4 insert it at once
    const outcomes = new Map<string, string[]>();
    for (const key of keys) {
      const results = await Promise.all(
        nodes.map((db, node) =>
          db
            .collection<{ _id: string; node: number }>('claims')
            .insertOne({ _id: key, node })
            .then(
              () => `won by ${node}`,
              (error: unknown) => (error instanceof MongoServerError ? `code ${error.code}` : `error ${String(error)}`),
            ),
        ),
      );
      outcomes.set(key, results);
    }

    // then: one winner, three duplicate-key refusals per key, and the stored owner is the winner
    const stored = new Map((await nodes[0]!.collection<{ _id: string; node: number }>('claims').find().toArray()).map((d) => [d._id, d.node]));
    assert.equal(stored.size, 40);
    for (const [key, results] of outcomes) {
      const winners = results.filter((r) => r.startsWith('won'));
      assert.equal(winners.length, 1, `${key}: ${results.join(', ')}`);
      assert.equal(results.filter((r) => r === 'code 11000').length, 3, `${key}: ${results.join(', ')}`);
      assert.equal(winners[0], `won by ${stored.get(key)}`);
    }
  });

  it('insertOne race on a unique compound index — exactly one document per (topic, seq)', async () => {
    // given: a unique index, as a per-topic sequence would have
    const nodes = database('unique');
    await nodes[0]!.collection('messages').createIndex({ topic: 1, seq: 1 }, { unique: true });

    // when: 4 clients each try to take seq 0..29 of one topic, all at once
    const taken = await Promise.all(
      nodes.map(async (db, node) => {
        let won = 0;
        for (let seq = 0; seq < 30; seq++) {
          try {
            await db.collection('messages').insertOne({ topic: 't', seq, node });
            won++;
          } catch (error) {
            if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
          }
        }
        return won;
      }),
    );

    // then
    assert.equal(taken.reduce((a, b) => a + b, 0), 30);
    const seqs = await nodes[1]!.collection('messages').distinct('seq', { topic: 't' });
    assert.deepEqual(seqs.sort((a: number, b: number) => a - b), Array.from({ length: 30 }, (_, i) => i));
    assert.equal(await nodes[1]!.collection('messages').countDocuments(), 30);
  });

  it('FerretDB quirk — a tailable cursor whose first batch is short or empty is closed at once', async () => {
    // given: a capped collection holding one document
    const [db] = database('quirk');
    await db!.createCollection('events', { capped: true, size: 1 << 20 });
    await db!.collection('events').insertOne({ seq: 0 });
    const open = async (filter: object, batchSize?: number): Promise<[string, number]> => {
      const reply = await db!.command({ find: 'events', filter, tailable: true, awaitData: true, ...(batchSize ? { batchSize } : {}) });
      const cursor = reply.cursor as { id: { toString(): string }; firstBatch: unknown[] };
      return [cursor.id.toString(), cursor.firstBatch.length];
    };

    // then: MongoDB keeps all three open; FerretDB only the one whose first batch is full
    assert.deepEqual(await open({ seq: { $gte: 0 } }), ['0', 1]); // default batchSize 101, 1 document
    assert.deepEqual(await open({ seq: { $gt: 0 } }, 1), ['0', 0]); // nothing matches yet
    const [id, count] = await open({ seq: { $gte: 0 } }, 1); // resume at an existing position
    assert.notEqual(id, '0');
    assert.equal(count, 1);
    await db!.command({ killCursors: 'events', cursors: [Long.fromString(id)] });
  });

  it('tailable awaitData cursor on a capped collection — sees all 50 documents another client inserts, in order', { timeout: 60_000 }, async () => {
    // given: a capped collection, and a reader tailing it from the last document it holds
    // (batchSize 1: FerretDB closes a tailable cursor whose first batch is not full)
    const [writer, reader] = database('tail');
    await writer!.createCollection('events', { capped: true, size: 1 << 20 });
    await writer!.collection('events').insertOne({ seq: 0 });
    const cursor = reader!
      .collection<{ seq: number }>('events')
      .find({ seq: { $gte: 0 } }, { tailable: true, awaitData: true, batchSize: 1, maxAwaitTimeMS: 1_000, projection: { _id: 0 } });
    const seen: number[] = [];
    let tailing!: () => void;
    const resumed = new Promise<void>((resolve) => (tailing = resolve));
    const read = (async () => {
      for await (const doc of cursor) {
        seen.push(doc.seq);
        if (seen.length === 1) tailing();
        if (seen.length === 51) break;
      }
    })();
    await Promise.race([resumed, read]);

    // when: the other client inserts 50 documents, one acknowledged insert after another
    for (let seq = 1; seq <= 50; seq++) await writer!.collection('events').insertOne({ seq });
    await read;

    // then
    assert.deepEqual(seen, Array.from({ length: 51 }, (_, seq) => seq));
    assert.equal(cursor.closed, true); // `break` closed it (killCursors)
  });
});
