import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { MongoClient } from 'mongodb';
import type { WaitingMessage } from '../../src/store/mongo/scheduled.js';
import { publish, WsStream, type Json } from '../support/clients.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { ferretDb, rollOut } from '../support/mongo-nodes.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Several nodes on one store (a cache file, a MongoDB), as a deployment of several Tocsin processes shares it. */

const statsOf = async (t: TestServer): Promise<number> => ((await (await fetch(`${t.url}/v1/stats`)).json()) as Json).messages as number;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A node on `settings`, closed when the file ends if the test did not close it (close is idempotent). */
async function node(settings: Record<string, string>): Promise<TestServer> {
  const t = await startTestServer(settings);
  after(() => t.server.close());
  return t;
}

async function publishSome(t: TestServer, topic: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) assert.equal((await publish(`${t.url}/${topic}`, `m${i}`)).status, 200);
}

describe('nodes on one cache file', () => {
  it('stats: each node adds its publishes to the stored total, so none overwrites another\'s', async () => {
    const file = join(tempDir(), 'cache.db');
    const [a, b] = [await node({ 'cache-file': file }), await node({ 'cache-file': file })];
    await publishSome(a, 'on-a', 3);
    await publishSome(b, 'on-b', 2);
    assert.deepEqual([await statsOf(a), await statsOf(b)], [3, 2], 'each shows the stored total and its own unsaved part');
    await a.server.close(); // saves 3
    await b.server.close(); // adds 2: saving its own view (2) would have overwritten a's
    const c = await node({ 'cache-file': file });
    assert.equal(await statsOf(c), 5);
    await publishSome(c, 'on-c', 1);
    await c.server.close();
    const d = await node({ 'cache-file': file });
    assert.equal(await statsOf(d), 6, 'a restart keeps the total');
  });

  it('every node runs its own housekeeping: each forgets its idle topics and reads back the others\' publishes', async () => {
    const file = join(tempDir(), 'cache.db');
    const settings = { 'cache-file': file, 'cache-duration': '1s', 'manager-interval': '1s' };
    const [a, b] = [await node(settings), await node(settings)];
    await publishSome(a, 'on-a', 2);
    await publishSome(b, 'on-b', 3);
    assert.deepEqual([a.server.context.topics.size, b.server.context.topics.size], [1, 1]);
    await sleep(3500); // three ticks of each node's timer
    assert.deepEqual([a.server.context.topics.size, b.server.context.topics.size], [0, 0], 'idle topics pruned on both nodes');
    assert.deepEqual([await statsOf(a), await statsOf(b)], [5, 5]);
  });
});

/** The next message event of `ws` (skipping open and keepalive). */
async function nextMessage(ws: WsStream): Promise<Json> {
  for (;;) {
    const frame = await ws.next();
    if (frame.event === 'message') return frame;
  }
}

describe('nodes on one MongoDB — scheduled releases', { skip: ferretDbSkip(), timeout: 60_000 }, () => {
  /**
   * Two nodes on a fresh database of the file's FerretDB, a WebSocket subscriber to `topic`
   * on each, and a client of the database; all closed when test `t` ends.
   */
  async function twoNodes(t: TestContext, label: string, topic: string, settings: Record<string, string> = {}): Promise<{ nodes: TestServer[]; streams: WsStream[]; client: MongoClient; database: string }> {
    const ferret = await ferretDb();
    const database = ferret.databaseName(label);
    const url = ferret.url.replace('/?', `/${database}?`);
    const nodes = [await startTestServer({ 'database-url': url, ...settings }), await startTestServer({ 'database-url': url, ...settings })];
    const streams = nodes.map((n) => new WsStream(`${n.url}/${topic}/ws`));
    const client = await MongoClient.connect(ferret.url);
    t.after(async () => {
      for (const s of streams) s.close();
      await Promise.all([...nodes.map((n) => n.server.close()), client.close()]);
    });
    for (const s of streams) assert.equal((await s.next()).event, 'open');
    return { nodes, streams, client, database };
  }

  /** Releases `id` on every node at once, as two schedulers that both took the job would. */
  const releaseEverywhere = (nodes: TestServer[], id: string): Promise<void[]> => Promise.all(nodes.map((n) => n.server.context.publisher.release(id)));

  it('release — a scheduled message released by both nodes at once reaches each node\'s subscribers once', async (t) => {
    // given
    const { nodes, streams } = await twoNodes(t, 'release-race', 'race');
    const [a, b] = nodes as [TestServer, TestServer];
    const { json: due } = await publish(`${a.url}/race`, 'due', { Delay: '1h' });

    // when
    await releaseEverywhere(nodes, due.id as string);
    await publish(`${b.url}/race`, 'after');

    // then: each subscriber gets it, then the next message: nothing twice
    for (const s of streams) assert.deepEqual([(await nextMessage(s)).id, (await nextMessage(s)).message], [due.id, 'after']);
  });

  it('release — a claim outlives the capped log: a waiting copy left behind is not released again after the release left the log', async (t) => {
    // given: a message released, the waiting copy a crash before its removal leaves, and a
    // log (tiny cache-size-limit) that dropped the release's batch since
    const { nodes, streams, client, database } = await twoNodes(t, 'release-rolled', 'rolled', { 'cache-size-limit': '4k', 'database-shards': '1' });
    const [a, b] = nodes as [TestServer, TestServer];
    const { json: due } = await publish(`${a.url}/rolled`, 'due', { Delay: '1h' });
    const copies = client.db(database).collection<WaitingMessage>('scheduled_messages');
    const copy = (await copies.findOne({ _id: due.id as string })) as WaitingMessage;
    await a.server.context.publisher.release(due.id as string);
    for (const s of streams) assert.equal((await nextMessage(s)).id, due.id);
    await copies.insertOne(copy);
    for (let i = 0; i < 30; i++) await publish(`${a.url}/filler`, `f${i}`);
    await rollOut(client.db(database), copy.pos + 1);

    // when: the job runs again, on both nodes
    await releaseEverywhere(nodes, due.id as string);
    await publish(`${b.url}/rolled`, 'after');

    // then
    for (const s of streams) assert.equal((await nextMessage(s)).message, 'after');
  });
});
