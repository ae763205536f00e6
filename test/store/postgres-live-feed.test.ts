import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import type { Store } from '../../src/store/store.js';
import { shardOf } from '../../src/store/topic-logs.js';
import { freshDatabase, messageStoreNode, postgresSkip } from '../support/postgres.js';
import { message } from './contracts/cache-messages.js';
import { idsOf, latencySummary, publish, recorder } from './contracts/feed-nodes.js';
import type { Open } from './contracts/instances.js';
import { describeLiveFeed } from './contracts/live-feed.contract.js';

interface Node {
  url: string;
  store: Store;
  errors: unknown[];
}

/** A node's store on the database at `url` (a fresh one of `logs` logs without). */
async function node(url?: string, logs = 1): Promise<Node> {
  const at = url ?? (await freshDatabase('feed'));
  const errors: unknown[] = [];
  const store = await messageStoreNode(at, errors, logs);
  return { url: at, store, errors };
}

const postgres =
  (logs: number): Open<Store> =>
  async (location) => {
    const { url, store, errors } = await node(location, logs);
    const close = async (): Promise<void> => {
      await store.close();
      assert.deepEqual(errors, []);
    };
    return { instance: store, location: url, close };
  };

describe('PostgreSQL live feed', { skip: postgresSkip() }, () => {
  describeLiveFeed('postgresql', postgres(1), { uncachedAfterStored: true });
});

describe('PostgreSQL live feed, topics in 4 logs', { skip: postgresSkip() }, () => {
  describeLiveFeed('postgresql', postgres(4), { uncachedAfterStored: true, logOf: (topic) => shardOf(topic, 4) });
});

describe('PostgreSQL live feed — several nodes on one database', { skip: postgresSkip(), timeout: 60_000 }, () => {
  const nodes: Node[] = [];
  after(() => Promise.all(nodes.map((n) => n.store.close())));
  const open = async (url?: string, logs = 1): Promise<Node> => {
    const n = await node(url, logs);
    nodes.push(n);
    return n;
  };

  it('feed — concurrent commits of three nodes reach every node in one order, each once', async () => {
    // given: three nodes, each recording its feed
    const a = await open();
    const [b, c] = [await open(a.url), await open(a.url)];
    const recorded = [a, b, c].map((n) => recorder(n.store.feed));

    // when: each commits 50 batches of 3 stored messages and one Cache: no, all at once
    const batches = 50;
    await Promise.all([a, b, c].map(async (n) => {
      for (let i = 0; i < batches; i++) await publish(n.store, [message('order'), message('order'), message('order')], [message('order')]);
    }));

    // then: the same 600 events on every node, in the same order, stored ones in increasing seq
    const total = 3 * batches * 4;
    const seen = await Promise.all(recorded.map((r) => r.next(total)));
    const [first, ...others] = seen.map(idsOf);
    for (const other of others) assert.deepEqual(other, first);
    assert.equal(new Set(first).size, total);
    const seqs = (seen[0] ?? []).flatMap((e) => (e.seq === undefined ? [] : [e.seq]));
    assert.equal(seqs.length, 3 * batches * 3);
    assert.ok(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)), 'increasing seqs');
  });

  it('feed — more than a page (1,000 rows) behind in two of four logs: every row read, each log in order', async () => {
    // given: node b on a's database of 4 logs; topics in two different logs
    const a = await open(undefined, 4);
    const b = await open(a.url, 4);
    const fromB = recorder(b.store.feed);
    const topics = ['paged-a', 'paged-b', 'paged-c', 'paged-d'];
    const x = topics[0] as string;
    const y = topics.find((t) => shardOf(t, 4) !== shardOf(x, 4)) as string;

    // when: one commit of 1,200 messages to x and 1,100 to y
    const [inX, inY] = [Array.from({ length: 1200 }, () => message(x)), Array.from({ length: 1100 }, () => message(y))];
    await publish(a.store, [...inX, ...inY]);

    // then: b hands on all 2,300, each topic's in commit order
    const seen = await fromB.next(2300);
    assert.deepEqual(idsOf(seen.filter((e) => e.head.topic === x)), inX.map((m) => m.id));
    assert.deepEqual(idsOf(seen.filter((e) => e.head.topic === y)), inY.map((m) => m.id));
  });

  it('feed — a node whose listening connection is cut listens again and delivers what committed meanwhile', async () => {
    // given: node b following a's commits
    const a = await open();
    const b = await open(a.url);
    const fromB = recorder(b.store.feed);
    const m1 = message('cut');
    await publish(a.store, [m1]);
    assert.deepEqual(idsOf(await fromB.next(1)), [m1.id]);

    // when: the server ends every other session's LISTEN (b's listener among them), and a commits meanwhile
    const admin = new pg.Client({ connectionString: a.url });
    await admin.connect();
    try {
      const cut = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN tocsin_log'");
      assert.equal(cut.rowCount, 2, 'both nodes listened');
    } finally {
      await admin.end();
    }
    const later = [message('cut'), message('cut')];
    await publish(a.store, later);

    // then: b reported the lost connection and delivered both
    assert.deepEqual(idsOf(await fromB.next(3)), [m1.id, ...later.map((m) => m.id)]);
    assert.ok(b.errors.length >= 1, 'the cut is reported');
    b.errors.length = 0;
    a.errors.length = 0;
    const after = message('cut');
    await publish(a.store, [after]);
    assert.equal(idsOf(await fromB.next(4))[3], after.id, 'b listens again');
  });

  it('feed — latency from commit to emission, on the committing node and on another', async (t) => {
    // given
    const a = await open();
    const b = await open(a.url);
    const [fromA, fromB] = [recorder(a.store.feed), recorder(b.store.feed)];
    const took = { a: [] as number[], b: [] as number[] };

    // when: 200 publishes, one at a time
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      const emitted = Promise.all([fromA.next(i + 1), fromB.next(i + 1)].map((p, n) => p.then(() => took[n === 0 ? 'a' : 'b'].push(performance.now() - start))));
      await publish(a.store, [message('latency')]);
      await emitted;
    }

    // then
    t.diagnostic(`publish → feed, same node: ${latencySummary(took.a)}; other node: ${latencySummary(took.b)}`);
    assert.equal(took.b.length, 200);
    assert.ok(Math.max(...took.a, ...took.b) < 1000, 'every event within 1 s');
  });
});
