import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterStore, Figure, Load, Scenario, Sizes } from '../figures.js';
import { startTocsin, type Target } from '../targets.js';
import { ferretDbSkip, startFerretDb } from '../../test/support/ferretdb.js';
import { createDatabase, postgresSkip, startPostgres } from '../../test/support/postgres.js';
import { TcpProxy, type ProxyTarget } from '../../test/support/tcp-proxy.js';
import { measureCluster, type Setup } from './cluster-run.js';

/**
 * 12. Scale-out (Tocsin only): 1, 2 and 3 nodes (`--cluster-nodes`), each its own process,
 * on one MongoDB-wire database (FerretDB on PostgreSQL, as the tests use), then on one
 * PostgreSQL database (Debian's server, one log), with the publish
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
  for (const store of sizes.clusterStores) {
    const database = await opens[store]();
    if (typeof database === 'string') {
      console.error(`# cluster: ${database}`);
      continue;
    }
    try {
      figures.push(...(await onDatabase(database, sizes, load)));
    } finally {
      await database.stop();
    }
  }
  return figures;
};

const opens: Record<ClusterStore, () => Promise<ClusterDatabase | string>> = {
  ferretdb: () => openFerretDb(),
  'ferretdb-peers': () => openFerretDb(['--cluster-secret', 'bench-cluster-secret-0123456789']),
  postgres: openPostgres,
};

/** A database server the nodes share, started for the scenario. */
interface ClusterDatabase {
  store: ClusterStore;
  /** What every node is started with besides the database. */
  settings: string[];
  /** Where the delaying proxy connects. */
  target: ProxyTarget;
  /** The database-url of a new database, reached through the proxy at `proxyPort` when given. */
  freshUrl(label: string, proxyPort: number | undefined): Promise<string>;
  stop(): Promise<void>;
}

async function openFerretDb(settings: string[] = []): Promise<ClusterDatabase | string> {
  const skip = ferretDbSkip();
  if (skip) return `FerretDB skipped: ${skip}`;
  const ferret = await startFerretDb();
  const port = Number(new URL(ferret.url).port);
  return {
    store: settings.length > 0 ? 'ferretdb-peers' : 'ferretdb',
    settings,
    target: { host: '127.0.0.1', port },
    freshUrl: async (label, proxyPort) => `mongodb://127.0.0.1:${proxyPort ?? port}/${ferret.databaseName(label)}?directConnection=true`,
    stop: () => ferret.stop(),
  };
}

async function openPostgres(): Promise<ClusterDatabase | string> {
  const skip = postgresSkip();
  if (skip) return `PostgreSQL skipped: ${skip}`;
  const cluster = await startPostgres('bench');
  return {
    store: 'postgres',
    settings: [],
    target: { path: join(cluster.sockets, '.s.PGSQL.5432') },
    freshUrl: async (label, proxyPort) => {
      const name = await createDatabase(cluster, label);
      return proxyPort === undefined ? cluster.url(name) : `postgres://postgres@127.0.0.1:${proxyPort}/${name}`;
    },
    stop: () => cluster.stop(),
  };
}

/** Every configuration of `sizes` on `database`: delays, loads, node counts, topics and logs. */
async function onDatabase(database: ClusterDatabase, sizes: Sizes, load: Load): Promise<Figure[]> {
  const figures: Figure[] = [];
  const largest = Math.max(...sizes.clusterDelays);
  for (const delayMs of sizes.clusterDelays) {
    const proxy = delayMs > 0 ? await TcpProxy.start(database.target, { delayMs }) : undefined;
    try {
      const loads: Setup['load'][] = delayMs > 0 && delayMs === largest ? ['shared', 'each'] : ['shared'];
      for (const share of loads) {
        for (const n of sizes.clusterNodes) {
          if (share === 'each' && n === 1) continue; // the same as the shared load on one node
          for (const topics of sizes.clusterTopics) {
            for (const shards of sizes.clusterShards) {
              const setup: Setup = { store: database.store, delayMs, load: share, topics, shards };
              const url = await database.freshUrl(`n${n}d${delayMs}${share}t${topics}s${shards}`, proxy?.port);
              figures.push(...(await onFreshNodes(url, n, setup, database.settings, sizes, load)));
            }
          }
        }
      }
    } finally {
      await proxy?.stop();
    }
  }
  return figures;
}

/** `n` nodes started one after another on the database at `url`. */
async function onFreshNodes(url: string, n: number, setup: Setup, settings: string[], sizes: Sizes, load: Load): Promise<Figure[]> {
  console.error(`# cluster on ${setup.store}: ${n} node${n > 1 ? 's' : ''}, ${setup.delayMs} ms each way, ${setup.load} load, ${setup.topics} topic${setup.topics > 1 ? 's' : ''}, ${setup.shards} logs`);
  const nodes: Target[] = [];
  try {
    for (let i = 0; i < n; i++) nodes.push(await startTocsin({ settings: ['--database-url', url, '--database-shards', String(setup.shards), ...settings] }));
    // Nodes that announce to each other link within one look for peers (every 5 s), earlier ones to later ones last.
    if (n > 1 && settings.includes('--cluster-secret')) await sleep(6000);
    return await measureCluster(setup, nodes, sizes, load);
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
  }
}
