import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { LineStream, publish, WsStream, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { Scrape } from '../support/prometheus.js';
import { spawnServer } from '../support/server.js';
import { proxiedDatabase } from '../support/mongo-nodes.js';
import { shardOf } from '../../src/store/topic-logs.js';
import { logCollection } from '../../src/store/mongo/message-log.js';

/**
 * Three Tocsin processes on one FerretDB, one of them behind a TCP proxy that stalls its
 * database traffic, so that the capped log wraps before that node reads it: the node must
 * tell its clients (end their streams) rather than skip the range silently.
 */

let ferret: FerretDb | undefined;
const clients: MongoClient[] = [];
after(async () => {
  for (const c of clients) await c.close();
  await ferret?.stop();
});

async function poll(url: string, topic: string, query: string): Promise<Json[]> {
  const text = await (await fetch(`${url}/${topic}/json?poll=1&${query}`)).text();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

/**
 * What `read` answers once FerretDB's capped clean-up (every second here) has brought the
 * log within its size: the same twice, over a clean-up interval apart.
 */
async function settled(read: () => Promise<Json[]>): Promise<Json[]> {
  let before = await read();
  for (;;) {
    await sleep(1500);
    const now = await read();
    if (now.length === before.length) return now;
    before = now;
  }
}

/** How many messages the JSON stream brings until none comes for 2 s (a measure, not a wait on an event). */
async function messagesUntilQuiet(stream: LineStream): Promise<number> {
  let count = 0;
  for (;;) {
    const event = await stream.nextJson(2000).catch(() => undefined);
    if (!event) return count;
    if (event.event === 'message') count++;
  }
}

/** The JSON stream's messages until the server ends it (skipping open and keepalive events). */
async function messagesUntilEnd(stream: LineStream, timeoutMs: number): Promise<Json[]> {
  const got: Json[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = await stream.next(Math.max(1, deadline - Date.now())).catch((err: unknown) => {
      if (err instanceof Error && err.message === 'stream ended') return undefined;
      throw err;
    });
    if (line === undefined) return got;
    const event = JSON.parse(line) as Json;
    if (event.event === 'message') got.push(event);
  }
}

describe('three nodes on one MongoDB — a capped log that wraps under a slow node', { skip: ferretDbSkip(), timeout: 120_000 }, () => {
  it('the slow node ends its streams (HTTP ends, WebSocket drops) and a reconnect with since= resumes with the oldest message still held', async () => {
    // given: nodes A and B on the database, node C behind a proxy; a 64 KB log. FerretDB
    // keeps a capped collection to its size only in a background clean-up, of 10% of the
    // documents every minute by default: here every second.
    process.env.FERRETDB_TEST_CAPPED_CLEANUP_INTERVAL = '1s';
    ferret = await startFerretDb();
    const { url, proxiedUrl, proxy } = await proxiedDatabase(ferret, 'wrap');
    const database = new URL(url).pathname.slice(1);
    // Two logs: the test reads and rolls out the one of topic `wrap`; a topic of the other
    // (`calm`) keeps its streams.
    const args = ['--cache-size-limit', '64k', '--database-shards', '2', '--enable-metrics', 'true'];
    const calm = ['calm', 'calm1', 'calm2', 'calm3'].find((t) => shardOf(t, 2) !== shardOf('wrap', 2)) as string;
    const a = await spawnServer(['--database-url', url, ...args]);
    const b = await spawnServer(['--database-url', url, ...args]);
    const c = await spawnServer(['--database-url', proxiedUrl, ...args]);
    const direct = await MongoClient.connect(ferret.url);
    clients.push(direct);
    const log = direct.db(database).collection<{ _id: number; last: number; ids?: string[] }>(logCollection(shardOf('wrap', 2)));
    const onB = new LineStream(`${b.url}/wrap/json`);
    const onC = new LineStream(`${c.url}/wrap/json`);
    const wsOnC = new WsStream(`${c.url}/wrap/ws`);
    const calmOnC = new LineStream(`${c.url}/${calm}/json`);
    assert.equal((await calmOnC.nextJson()).event, 'open');
    assert.equal((await onB.nextJson()).event, 'open');
    assert.equal((await onC.nextJson()).event, 'open');
    assert.equal((await wsOnC.next()).event, 'open');
    const { json: first } = await publish(`${a.url}/wrap`, 'first');
    assert.equal((await onB.nextJson()).id, first.id);
    assert.equal((await onC.nextJson()).id, first.id);
    assert.equal((await wsOnC.next()).id, first.id);
    const firstBatch = await log.findOne({ ids: first.id as string });
    assert.ok(firstBatch);

    // when: C's database traffic stalls while A publishes until the log dropped every
    // position after the last one C read
    proxy.freeze();
    const body = 'x'.repeat(2000);
    let published = 1;
    for (;;) {
      // In order: the replay is compared with what the log holds, oldest first.
      for (let i = 0; i < 10; i++) assert.equal((await publish(`${a.url}/wrap`, `${published++} ${body}`)).status, 200);
      const [oldest] = await log.find().sort({ _id: 1 }).limit(1).toArray();
      if (oldest && oldest._id > firstBatch.last + 1) break;
      assert.ok(published < 2000, 'the capped log never dropped its oldest batches');
    }
    proxy.thaw();

    // then: C ends its HTTP stream cleanly and drops its WebSocket
    const gotOnC = [first, ...(await messagesUntilEnd(onC, 30_000))];
    assert.equal(onC.failure, undefined, 'ended cleanly');
    assert.equal(await wsOnC.waitClosed(30_000), 1006);
    const scrape = await Scrape.of(`${c.url}/metrics`);
    assert.ok(scrape.value('tocsin_lost_ranges_total') >= 1);
    assert.ok(scrape.value('tocsin_lost_positions_total') >= 1);
    // and: C's stream of a topic of the other log goes on
    const { json: quiet } = await publish(`${a.url}/${calm}`, 'calm');
    assert.equal((await calmOnC.nextJson(10_000)).id, quiet.id);
    calmOnC.close();

    // and: a reconnect to C with since= the last message it got says that messages were
    // lost (replay_gap, issue 37), replays from the oldest message the cache still holds
    // after it, then goes on live
    const last = gotOnC.at(-1)?.id as string;
    const held = await settled(() => poll(a.url, 'wrap', 'since=all'));
    const seen = held.findIndex((m) => m.id === last);
    const expected = held.slice(seen + 1).map((m) => m.id);
    assert.ok(expected.length > 0 && expected.length < published - 1, `${expected.length} of ${published} still held after ${last}`);
    const onBLive = await messagesUntilQuiet(onB);
    console.log(`# C delivered ${gotOnC.length} of ${published} messages live before ending its streams; the log held ${held.length}; the replay brings ${expected.length}. B, which kept up, delivered ${onBLive + 1} live and kept its stream`);
    const again = new LineStream(`${c.url}/wrap/json?since=${last}`);
    try {
      assert.equal((await again.nextJson()).event, 'open');
      const gap = await again.nextJson();
      assert.deepEqual([gap.event, gap.topic, gap.since], ['replay_gap', 'wrap', last]);
      const replayed: unknown[] = [];
      while (replayed.length < expected.length) replayed.push((await again.nextJson()).id);
      assert.deepEqual(replayed, expected);
      const { json: live } = await publish(`${a.url}/wrap`, 'after');
      assert.equal((await again.nextJson(10_000)).id, live.id);
    } finally {
      again.close();
      onB.close();
    }
  });
});
