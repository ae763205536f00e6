import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import WebSocket, { WebSocketServer } from 'ws';
import { LineStream, publish, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { Scrape } from '../support/prometheus.js';
import { spawnServer, type ChildServer } from '../support/server.js';
import { nextMessage, poll } from './cluster-cases.js';

/**
 * Nodes on one MongoDB-wire database (FerretDB) that announce their commits to each other
 * (cluster-secret): every subscriber still sees every message in one order, and each node
 * holds the others' batches from their announcements instead of reading them back.
 */

const secret = 'a-cluster-secret-for-tests';
let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

async function freshDatabase(label: string): Promise<string> {
  const server = await (ferret ??= startFerretDb());
  return server.url.replace('/?', `/${server.databaseName(label)}?`);
}

const scrape = (node: ChildServer): Promise<Scrape> => Scrape.of(`${node.url}/metrics`);

/** Waits until every node has `count` peers linked (a node looks for new ones every 5 s). */
async function linked(nodes: ChildServer[], count: number): Promise<void> {
  for (const node of nodes) {
    for (let tries = 0; (await scrape(node)).value('tocsin_cluster_peer_links') !== count; tries++) {
      assert.ok(tries < 100, `${node.url} did not link to ${count} peers within 10 s`);
      await sleep(100);
    }
  }
}

/** The WebSocket upgrade of /v1/cluster/ws with `headers`: the status and body of its refusal. */
function refusal(url: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/cluster/ws`, { headers });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json }));
    });
    ws.on('error', reject);
  });
}

/**
 * A "node" registered in the database at `url` under `id` (ids sort as strings: which logs
 * it leads), served by a WebSocket server of this process that the real nodes link to.
 */
async function fakePeer(url: string, id: string, onLink: (ws: WebSocket) => void): Promise<void> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  after(() => server.close());
  await once(server, 'listening');
  server.on('connection', onLink);
  const client = await MongoClient.connect(url);
  after(() => client.close());
  const port = (server.address() as { port: number }).port;
  await client.db().collection<{ _id: string; url: string; t: number }>('cluster_nodes').insertOne({ _id: id, url: `http://127.0.0.1:${port}`, t: Date.now() });
}

describe('nodes that announce their commits to each other', { skip: ferretDbSkip(), timeout: 240_000 }, () => {
  it('publishers on three nodes: one order everywhere; one node commits the log, the others forward to it and hold what it announces', async () => {
    const url = await freshDatabase('peers');
    const nodes: ChildServer[] = [];
    for (let i = 0; i < 3; i++) nodes.push(await spawnServer(['--database-url', url, '--cluster-secret', secret, '--enable-metrics', 'true']));
    await linked(nodes, 2);
    const streams = nodes.map((n) => new LineStream(`${n.url}/busy/json`));
    try {
      for (const s of streams) assert.equal((await s.nextJson()).event, 'open');
      await Promise.all(nodes.map(async (n, i) => {
        for (let k = 0; k < 30; k++) assert.equal((await publish(`${n.url}/busy`, `n${i}-${k}`)).status, 200);
      }));
      const seen = await Promise.all(streams.map(async (s) => {
        const got: Json[] = [];
        while (got.length < 90) got.push(await nextMessage(s));
        return got.map((m) => m.message);
      }));
      assert.deepEqual(seen[1], seen[0]);
      assert.deepEqual(seen[2], seen[0]);
      assert.deepEqual(new Set(seen[0]).size, 90);
      // One log, so one leader: it forwarded nothing and was announced nothing; each other
      // node forwarded its 30 messages and was announced every batch the leader committed.
      const scrapes = await Promise.all(nodes.map(scrape));
      const forwarded = scrapes.map((s) => s.value('tocsin_cluster_forwarded_messages_total'));
      const received = scrapes.map((s) => s.value('tocsin_cluster_peer_batches_total'));
      const leader = forwarded.indexOf(0);
      assert.deepEqual(forwarded.toSorted(), [0, 30, 30]);
      assert.equal(received[leader], 0);
      const others = received.filter((_, i) => i !== leader);
      assert.equal(others[0], others[1]);
      assert.ok((others[0] as number) >= 1 && (others[0] as number) <= 90, `${others[0]} batches: the leader merges adds`);
      assert.deepEqual(scrapes.map((s) => s.value('tocsin_lost_ranges_total')), [0, 0, 0]);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('the leader killed mid-load: its followers answer 503 for what it left unanswered, lose no acknowledged message and take over', async () => {
    const url = await freshDatabase('leader');
    const nodes: ChildServer[] = [];
    for (let i = 0; i < 3; i++) nodes.push(await spawnServer(['--database-url', url, '--cluster-secret', secret, '--enable-metrics', 'true']));
    await linked(nodes, 2);
    for (const n of nodes) assert.equal((await publish(`${n.url}/steady`, 'hello')).status, 200);
    const forwarded = await Promise.all(nodes.map(async (n) => (await scrape(n)).value('tocsin_cluster_forwarded_messages_total')));
    const leader = nodes[forwarded.indexOf(0)] as ChildServer;
    const followers = nodes.filter((n) => n !== leader);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let killed = false;
    let answeredAfterKill = 0;
    const load = followers.map(async (n, i) => {
      for (let k = 0; k < 60; k++) {
        const res = await publish(`${n.url}/steady`, `f${i}-${k}`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (killed) answeredAfterKill++;
        if (res.status === 200) acknowledged.push(res.json.id as string);
        else assert.equal(res.json.code, 50301, `a forward left unanswered is ntfy's 503: ${JSON.stringify(res.json)}`);
      }
    });
    await sleep(150);
    leader.child.kill('SIGKILL');
    killed = true;
    await Promise.all(load);
    assert.ok(answeredAfterKill > 0, 'the leader died while the followers were publishing');
    // The survivors link to each other alone, one of them leads, and publishing goes on.
    await linked(followers, 1);
    for (const n of followers) {
      const res = await publish(`${n.url}/steady`, 'after');
      assert.equal(res.status, 200);
      acknowledged.push(res.json.id as string);
    }
    assert.ok((statuses.get(200) ?? 0) >= 60, `most publishes were acknowledged: ${JSON.stringify([...statuses])}`);
    for (const n of followers) {
      const ids = (await poll(n, 'steady')).map((m) => m.id as string);
      assert.equal(new Set(ids).size, ids.length, 'none twice');
      assert.deepEqual(acknowledged.filter((id) => !ids.includes(id)), [], 'every acknowledged message is there');
    }
  });

  it('refuses a link without the secret, or with another, with ntfy\'s 401; a node without cluster-secret has no such route', async () => {
    const url = await freshDatabase('refused');
    const withSecret = await spawnServer(['--database-url', url, '--cluster-secret', secret]);
    const unauthorized = { status: 401, body: { code: 40101, http: 401, error: 'unauthorized', link: 'https://ntfy.sh/docs/publish/#authentication' } };
    assert.deepEqual(await refusal(withSecret.url, {}), unauthorized);
    assert.deepEqual(await refusal(withSecret.url, { 'x-tocsin-cluster-secret': `${secret}x` }), unauthorized);
    const without = await spawnServer(['--database-url', url]);
    assert.equal((await refusal(without.url, { 'x-tocsin-cluster-secret': secret })).status, 404);
  });

  it('a leader that links but never answers: the forwarded publish gets 503 after 15 s, the node stops linking to it and commits the log itself', async () => {
    const url = await freshDatabase('hung');
    const node = await spawnServer(['--database-url', url, '--cluster-secret', secret, '--enable-metrics', 'true']);
    // A "node" whose id sorts before any node's, so it leads the log: it takes the link and
    // the forwarded adds, and answers none (a process whose database calls hang).
    let forwards = 0;
    await fakePeer(url, '!hung', (ws) => ws.on('message', () => forwards++));
    await linked([node], 1);
    const started = performance.now();
    const refused = await publish(`${node.url}/alerts`, 'to the hung leader');
    assert.equal(refused.status, 503);
    assert.equal(refused.json.code, 50301);
    assert.ok(performance.now() - started >= 14_000, 'answered when the forward timed out');
    assert.equal(forwards, 1);
    const stream = new LineStream(`${node.url}/alerts/json`);
    try {
      assert.equal((await stream.nextJson()).event, 'open');
      assert.equal((await publish(`${node.url}/alerts`, 'committed here')).status, 200);
      assert.equal((await nextMessage(stream)).message, 'committed here');
      // A look for peers later (every 5 s), the hung one, still registered, is not linked again.
      await sleep(5500);
      assert.equal((await scrape(node)).value('tocsin_cluster_peer_links'), 0);
      assert.equal((await publish(`${node.url}/alerts`, 'and again')).status, 200);
      assert.equal(forwards, 1);
    } finally {
      stream.close();
    }
  });

  it('a peer that sends what is no batch: ignored and logged, and the node goes on serving', async () => {
    const url = await freshDatabase('hostile');
    const node = await spawnServer(['--database-url', url, '--cluster-secret', secret, '--enable-metrics', 'true']);
    // A "node" registered in the database that links back and sends garbage on its socket;
    // its id sorts after any node's, so the real node leads the log and forwards it nothing.
    const frames = ['not json', '{"log":0}', '{"log":0,"batch":{"_id":"one","last":1,"events":[]}}', '{"log":7,"batch":{"_id":5,"last":5,"events":[]}}',
      '{"log":0,"batch":{"_id":5,"last":9,"events":[]}}', Buffer.from([0, 1, 2])];
    await fakePeer(url, '~fake', (ws) => {
      for (const frame of frames) ws.send(frame);
    });
    await linked([node], 1);
    await sleep(200);
    const stream = new LineStream(`${node.url}/calm/json`);
    try {
      assert.equal((await stream.nextJson()).event, 'open');
      assert.equal((await publish(`${node.url}/calm`, 'still here')).status, 200);
      assert.equal((await nextMessage(stream)).message, 'still here');
      assert.equal((await scrape(node)).value('tocsin_cluster_peer_batches_total'), 0);
    } finally {
      stream.close();
    }
  });
});
