import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import webpush from 'web-push';
import { LineStream, publish, SseStream, WsStream, type Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { PushService } from '../support/push-service.js';
import { spawnServer, tempDir, type ChildServer } from '../support/server.js';
import { shardOf } from '../../src/store/topic-logs.js';

/** How a suite gets its backend's databases, and what the backend reports. */
export interface ClusterBackend {
  /** The database-url of a fresh database. */
  freshDatabase(label: string): Promise<string>;
  /** Why the suite cannot run here, or false. */
  skip: string | false;
}

/** `count` nodes on one fresh database of `backend`, each with `args` too. */
export async function cluster(backend: ClusterBackend, label: string, count = 3, args: string[] = []): Promise<{ url: string; nodes: ChildServer[]; start: () => Promise<ChildServer> }> {
  const url = await backend.freshDatabase(label);
  const start = (): Promise<ChildServer> => spawnServer(['--database-url', url, ...args]);
  const nodes: ChildServer[] = [];
  for (let i = 0; i < count; i++) nodes.push(await start());
  return { url, nodes, start };
}

export async function poll(node: ChildServer, topic: string, query = ''): Promise<Json[]> {
  const text = await (await fetch(`${node.url}/${topic}/json?poll=1${query}`)).text();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

/** The next `message` event of a JSON stream (skipping open and keepalive). */
export async function nextMessage(stream: LineStream, timeoutMs = 5000): Promise<Json> {
  for (;;) {
    const event = await stream.nextJson(timeoutMs);
    if (event.event === 'message') return event;
  }
}

/** A topic in each of `count` logs (log-shards.ts places them). */
function topicsOfEveryLog(count: number): string[] {
  const byLog = new Map<number, string>();
  for (let i = 0; byLog.size < count; i++) if (!byLog.has(shardOf(`logs${i}`, count))) byLog.set(shardOf(`logs${i}`, count), `logs${i}`);
  return [...byLog.values()];
}

/**
 * Tocsin processes on one database of a cluster backend (MongoDB, PostgreSQL): they must
 * behave as one server for every client, whichever node a publisher or a subscriber
 * talks to. Run by each backend's cluster test.
 */
export function describeCluster(name: string, backend: ClusterBackend): void {
  const nodesOf = (label: string, count?: number, args?: string[]): ReturnType<typeof cluster> => cluster(backend, label, count, args);
  describe(`three nodes on one ${name}`, { skip: backend.skip, timeout: 240_000 }, () => {
  it('a message published on node 1 reaches subscribers on nodes 2 and 3 over json, sse, raw and ws', async () => {
    const { nodes } = await nodesOf('fanout');
    const [n1, n2, n3] = nodes as [ChildServer, ChildServer, ChildServer];
    const json = new LineStream(`${n2.url}/alerts/json`);
    const sse = new SseStream(`${n3.url}/alerts/sse`);
    const raw = new LineStream(`${n2.url}/alerts/raw`);
    const ws = new WsStream(`${n3.url}/alerts/ws`);
    try {
      assert.equal((await json.nextJson()).event, 'open');
      assert.equal((await sse.next()).event, 'open');
      assert.equal((await ws.next()).event, 'open');
      await raw.response;
      const { status, json: sent } = await publish(`${n1.url}/alerts`, 'Backup done', { Title: 'nightly' });
      assert.equal(status, 200);
      const got = await nextMessage(json);
      assert.deepEqual([got.id, got.message, got.title], [sent.id, 'Backup done', 'nightly']);
      const viaSse = JSON.parse((await sse.next()).data) as Json;
      assert.deepEqual([viaSse.id, viaSse.message], [sent.id, 'Backup done']);
      let line = await raw.next();
      while (line === '') line = await raw.next(); // keepalives are empty lines
      assert.equal(line, 'Backup done');
      assert.deepEqual([(await ws.next()).id], [sent.id]);
    } finally {
      for (const s of [json, sse, raw, ws]) s.close();
    }
  });

  it('since= and poll=1 on node 3 for messages published on node 1', async () => {
    const { nodes } = await nodesOf('since');
    const [n1, , n3] = nodes as [ChildServer, ChildServer, ChildServer];
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push((await publish(`${n1.url}/replay`, text)).json.id as string);
    assert.deepEqual((await poll(n3, 'replay')).map((m) => m.message), ['one', 'two', 'three']);
    assert.deepEqual((await poll(n3, 'replay', `&since=${ids[0]}`)).map((m) => m.message), ['two', 'three']);
    assert.deepEqual((await poll(n3, 'replay', '&since=latest')).map((m) => m.message), ['three']);
    const stream = new LineStream(`${n3.url}/replay/json?since=${ids[1]}`);
    try {
      assert.equal((await stream.nextJson()).event, 'open');
      assert.equal((await nextMessage(stream)).message, 'three');
      await publish(`${n1.url}/replay`, 'four');
      assert.equal((await nextMessage(stream)).message, 'four', 'then live, with no gap');
    } finally {
      stream.close();
    }
  });

  it('a scheduled message is delivered once, to the subscribers of every node', async () => {
    const { nodes } = await nodesOf('scheduled', 3, ['--message-delay-min', '1s']);
    const streams = nodes.map((n) => new LineStream(`${n.url}/later/json`));
    try {
      for (const s of streams) assert.equal((await s.nextJson()).event, 'open');
      const { json: sent } = await publish(`${(nodes[0] as ChildServer).url}/later`, 'at last', { Delay: '2s' });
      for (const s of streams) assert.equal((await nextMessage(s, 10_000)).id, sent.id);
      await sleep(2000); // a second delivery would come within the scheduler's polling
      for (const n of nodes) assert.deepEqual((await poll(n, 'later')).map((m) => m.id), [sent.id]);
    } finally {
      for (const s of streams) s.close();
    }
    for (const s of streams) assert.equal(await s.nextJson(10).then(() => 'more', () => 'none'), 'none', 'delivered once');
  });

  it('publishers on all three nodes to one topic: every subscriber sees one order', async () => {
    const { nodes } = await nodesOf('order', 3, ['--enable-metrics', 'true']);
    const streams = nodes.map((n) => new LineStream(`${n.url}/busy/json`));
    try {
      for (const s of streams) assert.equal((await s.nextJson()).event, 'open');
      await Promise.all(nodes.map(async (n, i) => {
        for (let k = 0; k < 40; k++) assert.equal((await publish(`${n.url}/busy`, `n${i}-${k}`)).status, 200);
      }));
      const seen = await Promise.all(streams.map(async (s) => {
        const got: Json[] = [];
        while (got.length < 120) got.push(await nextMessage(s));
        return got;
      }));
      const ids = seen.map((got) => got.map((m) => m.id));
      assert.deepEqual(ids[1], ids[0]);
      assert.deepEqual(ids[2], ids[0]);
      // A replay orders by time (whole seconds), then commit order, as ntfy's cache does.
      const byTime = [...(seen[0] as Json[])].sort((a, b) => (a.time as number) - (b.time as number)).map((m) => m.id);
      assert.deepEqual((await poll(nodes[2] as ChildServer, 'busy')).map((m) => m.id), byTime);
      // Each node timed its 40 commits and its pool's check-outs, and lost nothing.
      for (const n of nodes) {
        const scrape = await Scrape.of(`${n.url}/metrics`);
        assert.equal(Number(scrape.sample('tocsin_commit_latency_seconds')?.count), 40);
        assert.ok(Number(scrape.sample('tocsin_database_pool_wait_seconds')?.count) >= 80, 'two check-outs a commit at least (MongoDB: ids and log; PostgreSQL: the commit and the feed\'s read)');
        assert.equal(scrape.value('tocsin_lost_ranges_total'), 0);
        // An instant's gauge: a background read (the feed, housekeeping) may wait for a connection as it is scraped; none may stay waiting.
        for (const deadline = Date.now() + 5000; (await Scrape.of(`${n.url}/metrics`)).value('tocsin_database_pool_waiters') !== 0; ) {
          assert.ok(Date.now() < deadline, 'a pool waiter that never got a connection');
          await sleep(100);
        }
      }
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('a node killed mid-stream: the others keep serving, and a restarted node catches up', async () => {
    const { nodes, start } = await nodesOf('crash');
    const [n1, n2, n3] = nodes as [ChildServer, ChildServer, ChildServer];
    const onTwo = new LineStream(`${n2.url}/steady/json`);
    try {
      assert.equal((await onTwo.nextJson()).event, 'open');
      const first = (await publish(`${n3.url}/steady`, 'before')).json.id as string;
      n3.child.kill('SIGKILL');
      await n3.exited;
      await publish(`${n1.url}/steady`, 'during');
      assert.deepEqual([(await nextMessage(onTwo)).message, (await nextMessage(onTwo)).message], ['before', 'during']);
      const again = await start();
      assert.deepEqual((await poll(again, 'steady', `&since=${first}`)).map((m) => m.message), ['during']);
    } finally {
      onTwo.close();
    }
  });

  it('a request limit holds across the nodes, within the stated overshoot', async () => {
    // One burst of 10, no refill to speak of; nodes exchange what they granted every 250 ms.
    // Three nodes each on their own would grant 30 of these 48 requests.
    const { nodes } = await nodesOf('limits', 3, ['--visitor-request-limit-burst', '10', '--visitor-request-limit-replenish', '1h']);
    const statuses: number[] = [];
    for (let round = 0; round < 16; round++) {
      for (const n of nodes) statuses.push((await publish(`${n.url}/limited`, 'x')).status);
      await sleep(100);
    }
    const granted = statuses.filter((s) => s === 200).length;
    console.log(`# 3 nodes, burst 10: ${granted} of ${statuses.length} requests granted over 1.6 s (one node: 10, three apart: 30)`);
    assert.ok(granted >= 10 && granted < 30, `${granted} granted`);
    assert.deepEqual(statuses.slice(-6), [429, 429, 429, 429, 429, 429], 'all refuse once they have heard of each other');
  });

  it('an attachment uploaded on node 1 is downloaded whole and by range on node 2, within the visitor limits of all', async () => {
    const dir = tempDir();
    const { nodes } = await nodesOf('files', 2, ['--base-url', 'http://tocsin.test', '--attachment-cache-dir', dir, '--visitor-attachment-total-size-limit', '15']);
    const [n1, n2] = nodes as [ChildServer, ChildServer];
    const sent = await publish(`${n1.url}/files`, '0123456789', { Filename: 'digits.txt' }, 'PUT');
    assert.equal(sent.status, 200);
    const path = new URL((sent.json.attachment as Json).url as string).pathname;
    const whole = await fetch(`${n2.url}${path}`);
    assert.deepEqual([whole.status, await whole.text()], [200, '0123456789']);
    const part = await fetch(`${n2.url}${path}`, { headers: { Range: 'bytes=2-5' } });
    assert.deepEqual([part.status, part.headers.get('content-range'), await part.text()], [206, 'bytes 2-5/10', '2345']);
    const over = await publish(`${n2.url}/files`, 'abcdefgh', { Filename: 'more.txt' }, 'PUT');
    assert.deepEqual([over.status, over.json.code], [413, 41301], 'the 10 bytes stored through node 1 count on node 2');
  });

  it('a password change and a token revocation on node 1 take effect on node 2 within a second', async () => {
    const { nodes } = await nodesOf('auth', 2, ['--enable-login', 'true', '--enable-signup', 'true']);
    const [n1, n2] = nodes as [ChildServer, ChildServer];
    const basic = (password: string): Record<string, string> => ({ Authorization: `Basic ${Buffer.from(`phil:${password}`).toString('base64')}` });
    const call = (path: string, method: string, headers: Record<string, string>, body?: Json): Promise<Response> =>
      fetch(`${n1.url}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    /** How long node 2 still accepts `headers` (polling every 50 ms), up to 3 s. */
    const acceptedFor = async (headers: Record<string, string>): Promise<number> => {
      const at = Date.now();
      while (Date.now() - at < 3000 && (await publish(`${n2.url}/notes`, 'hi', headers)).status === 200) await sleep(50);
      return Date.now() - at;
    };
    assert.equal((await call('/v1/account', 'POST', {}, { username: 'phil', password: 'first-pw' })).status, 200);
    assert.equal((await publish(`${n2.url}/notes`, 'hi', basic('first-pw'))).status, 200, 'the account made on node 1 works on node 2');
    const token = ((await (await call('/v1/account/token', 'POST', basic('first-pw'), { label: 'cli' })).json()) as Json).token as string;
    const bearer = { Authorization: `Bearer ${token}` };
    assert.equal((await publish(`${n2.url}/notes`, 'hi', bearer)).status, 200);

    assert.equal((await call('/v1/account/password', 'POST', basic('first-pw'), { password: 'first-pw', new_password: 'second-pw' })).status, 200);
    const passwordMs = await acceptedFor(basic('first-pw'));
    assert.equal((await publish(`${n2.url}/notes`, 'hi', basic('first-pw'))).status, 401);
    assert.equal((await publish(`${n2.url}/notes`, 'hi', basic('second-pw'))).status, 200);

    assert.equal((await call('/v1/account/token', 'DELETE', { ...basic('second-pw'), 'X-Token': token })).status, 200);
    const tokenMs = await acceptedFor(bearer);
    assert.equal((await publish(`${n2.url}/notes`, 'hi', bearer)).status, 401);
    console.log(`# node 2 honoured the old password ${passwordMs} ms and the revoked token ${tokenMs} ms after node 1 answered`);
    assert.ok(passwordMs < 1000 && tokenMs < 1000, `${passwordMs} ms, ${tokenMs} ms`);
  });  });

  // Its own suite, so it does not eat into the three-node suite's time budget.
  describe(`two nodes on one ${name} — web push`, { skip: backend.skip, timeout: 60_000 }, () => {
  it('a browser subscribed for web push through node 1 gets each message published on node 2 once', async () => {
    const vapid = webpush.generateVAPIDKeys();
    const service = await PushService.start(vapid.publicKey);
    const settings = ['--base-url', 'http://tocsin.test', '--web-push-public-key', vapid.publicKey, '--web-push-private-key', vapid.privateKey];
    const { nodes } = await nodesOf('webpush', 2, [...settings, '--web-push-email-address', 'a@tocsin.test', '--web-push-allowed-endpoints', `${service.url}/push/`, '--web-push-allow-private-endpoints', 'true']);
    const [n1, n2] = nodes as [ChildServer, ChildServer];
    const browser = service.browser('b');
    const body = JSON.stringify({ endpoint: browser.endpoint, auth: browser.auth, p256dh: browser.p256dh, topics: ['news'] });
    assert.equal((await fetch(`${n1.url}/v1/webpush`, { method: 'POST', body })).status, 200);
    for (const text of ['first', 'second']) {
      assert.equal((await publish(`${n2.url}/news`, text)).status, 200);
      const push = await service.pushes.take(10_000);
      assert.equal((push.payload.message as Json).message, text);
    }
    assert.deepEqual([service.received, service.problems], [2, []], 'each once: only the committing node pushes');
  });
  });
  describe(`three nodes on one ${name} — several logs`, { skip: backend.skip, timeout: 120_000 }, () => {
  it('publishers on three nodes to topics of four logs (database-shards 4): each topic in one order on every node, nothing lost or repeated, replayed in order', async () => {
    // given: three nodes on four logs, a subscription to four topics of different logs on each
    const { nodes } = await nodesOf('logs', 3, ['--database-shards', '4']);
    const topics = topicsOfEveryLog(4);
    const streams = nodes.map((n) => new LineStream(`${n.url}/${topics.join(',')}/json`));
    try {
      for (const s of streams) assert.equal((await s.nextJson()).event, 'open');

      // when: each node publishes 10 messages to each topic, a topic after the other
      await Promise.all(nodes.map(async (n, i) => {
        for (let k = 0; k < 40; k++) assert.equal((await publish(`${n.url}/${topics[k % 4]}`, `n${i}-${k}`)).status, 200);
      }));

      // then
      const seen = await Promise.all(streams.map(async (s) => {
        const got: Json[] = [];
        while (got.length < 120) got.push(await nextMessage(s));
        return got;
      }));
      for (const topic of topics) {
        const ids = seen.map((got) => got.filter((m) => m.topic === topic).map((m) => m.id));
        assert.equal(new Set(ids[0]).size, 30, `${topic}: each once`);
        assert.deepEqual(ids[1], ids[0], `${topic} on node 2`);
        assert.deepEqual(ids[2], ids[0], `${topic} on node 3`);
        const byTime = seen[0]!.filter((m) => m.topic === topic).sort((a, b) => (a.time as number) - (b.time as number)).map((m) => m.id);
        assert.deepEqual((await poll(nodes[1] as ChildServer, topic)).map((m) => m.id), byTime, `${topic} replayed`);
      }
    } finally {
      for (const s of streams) s.close();
    }
  });
  });
}
