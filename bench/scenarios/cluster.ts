import type { Figure, Load, Scenario, Sizes } from '../figures.js';
import { startTocsin, type Target } from '../targets.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../../test/support/ferretdb.js';
import { TcpProxy } from '../../test/support/tcp-proxy.js';
import { measureCluster, type Setup } from './cluster-run.js';

/**
 * 12. Scale-out (Tocsin only): 1, 2 and 3 nodes (`--cluster-nodes`), each its own process,
 * on one MongoDB-wire database (FerretDB on PostgreSQL, as the tests use), with the publish
 * scenario's wrk load spread over the nodes and subscribers on every node; then again
 * through a proxy adding 1 and 5 ms each way in front of the database (`--cluster-delays`:
 * a same-zone and a cross-zone network). At the largest delay, also with each node under
 * its own 64 connections: where the network, not the CPU, is the limit, which is the only
 * place scaling can show on a 2-core machine. The harness's own SQLite node is measured
 * first, in the same run, as the reference. Every configuration runs once per
 * `--cluster-topics` count: one topic (one log, so the nodes' commits contend for one
 * chain) and topics spread over the logs (`database-shards`). Every server shares this
 * machine's cores.
 */
export const clusterScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const figures: Figure[] = [];
  for (const topics of sizes.clusterTopics) figures.push(...(await measureCluster({ store: 'sqlite', delayMs: 0, load: 'shared', topics }, [target], sizes, load)));
  const skip = ferretDbSkip();
  if (skip) {
    console.error(`# cluster: FerretDB skipped: ${skip}`);
    return figures;
  }
  const ferret = await startFerretDb();
  try {
    const largest = Math.max(...sizes.clusterDelays);
    for (const delayMs of sizes.clusterDelays) {
      const port = Number(new URL(ferret.url).port);
      const proxy = delayMs > 0 ? await TcpProxy.start({ host: '127.0.0.1', port }, { delayMs }) : undefined;
      try {
        const loads: Setup['load'][] = delayMs > 0 && delayMs === largest ? ['shared', 'each'] : ['shared'];
        for (const share of loads) {
          for (const n of sizes.clusterNodes) {
            if (share === 'each' && n === 1) continue; // the same as the shared load on one node
            for (const topics of sizes.clusterTopics) {
              for (const shards of sizes.clusterShards) figures.push(...(await onFreshNodes(ferret, proxy?.port ?? port, n, { store: 'ferretdb', delayMs, load: share, topics, shards }, sizes, load)));
            }
          }
        }
      } finally {
        await proxy?.stop();
      }
    }
  } finally {
    await ferret.stop();
  }
  return figures;
};

/** `n` nodes started one after another on a database of their own, reached through `port`. */
async function onFreshNodes(ferret: FerretDb, port: number, n: number, setup: Setup, sizes: Sizes, load: Load): Promise<Figure[]> {
  const url = `mongodb://127.0.0.1:${port}/${ferret.databaseName(`n${n}d${setup.delayMs}${setup.load}t${setup.topics}s${setup.shards}`)}?directConnection=true`;
  console.error(`# cluster: ${n} node${n > 1 ? 's' : ''}, ${setup.delayMs} ms each way, ${setup.load} load, ${setup.topics} topic${setup.topics > 1 ? 's' : ''}, ${setup.shards} logs`);
  const nodes: Target[] = [];
  try {
    for (let i = 0; i < n; i++) nodes.push(await startTocsin({ settings: ['--database-url', url, '--database-shards', String(setup.shards)] }));
    return await measureCluster(setup, nodes, sizes, load);
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
  }
}
