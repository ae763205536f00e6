import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LineStream, publish, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import type { ChildServer } from '../support/server.js';
import { shardOf } from '../../src/store/topic-logs.js';
import { cluster, describeCluster, nextMessage, poll, type ClusterBackend } from './cluster-cases.js';

/** Tocsin processes on one MongoDB-wire database (FerretDB). */

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

const mongo: ClusterBackend = {
  /** The database-url of a fresh database on the file's FerretDB. */
  freshDatabase: async (label) => {
    const server = await (ferret ??= startFerretDb());
    return server.url.replace('/?', `/${server.databaseName(label)}?`);
  },
  skip: ferretDbSkip(),
};

/** A topic in each of `count` logs (log-shards.ts places them). */
function topicsOfEveryLog(count: number): string[] {
  const byLog = new Map<number, string>();
  for (let i = 0; byLog.size < count; i++) if (!byLog.has(shardOf(`logs${i}`, count))) byLog.set(shardOf(`logs${i}`, count), `logs${i}`);
  return [...byLog.values()];
}

describeCluster('MongoDB', mongo);

describe('three nodes on one MongoDB — several logs', { skip: mongo.skip, timeout: 120_000 }, () => {
  it('publishers on three nodes to topics of four logs (database-shards 4): each topic in one order on every node, nothing lost or repeated, replayed in order', async () => {
    // given: three nodes on four logs, a subscription to four topics of different logs on each
    const { nodes } = await cluster(mongo, 'logs', 3, ['--database-shards', '4']);
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
