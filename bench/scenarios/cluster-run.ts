import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterStore, Figure, Load, Sizes } from '../figures.js';
import { runWrkRecordingIds } from '../load/wrk.js';
import { percentile } from '../proc.js';
import type { Target } from '../targets.js';
import type { Worker } from '../worker.js';
import { closeSubscribers, collect } from './fanout.js';

/** What one configuration of the cluster scenario is: its figures' parameters. */
export interface Setup {
  store: 'sqlite' | ClusterStore;
  /** Milliseconds a proxy adds each way between the nodes and the database; 0 is none. */
  delayMs: number;
  /** `shared`: 64 connections spread over the nodes; `each`: 64 on every node. */
  load: 'shared' | 'each';
  /** Topics the publishes spread over at random: 1 is `bench` alone, more are `bench0`… (one subscription to all of them each). */
  topics: number;
  /** The nodes' database-shards; absent for the SQLite node. */
  shards?: number;
}

const connections = 64;
/** The params that name a configuration (the others belong to one figure). */
export const clusterConfiguration = ['store', 'nodes', 'delay', 'connections', 'topics', 'shards'];
interface Checked {
  subscriptions: number;
  lost: number;
  duplicated: number;
  messages: number;
  /** Subscriptions that miss acknowledged publishes, and those the server ended (subscribers.ts `check`). */
  missing: string[];
}

/** How many of the 64 connections node `i` of `n` gets: round-robin, so they differ by one at most. */
export function connectionsOf(i: number, n: number, load: Setup['load']): number {
  return load === 'each' ? connections : Math.floor(connections / n) + (i < connections % n ? 1 : 0);
}

/**
 * One configuration on running `nodes`: publish-to-receive at a fixed rate (published on the
 * first node, received on the last, so across the database when there are two or more),
 * then wrk at full speed on every node with subscribers on every node, each checked for
 * every acknowledged publish's id.
 */
export async function measureCluster(setup: Setup, nodes: Target[], sizes: Sizes, load: Load): Promise<Figure[]> {
  const params = { store: setup.store, nodes: nodes.length, delay: `${setup.delayMs}ms`, connections: setup.load === 'each' ? `${connections} per node` : `${connections} in all`, topics: setup.topics, shards: setup.shards ?? 1 };
  const topics = setup.topics === 1 ? 'bench' : Array.from({ length: setup.topics }, (_, i) => `bench${i}`).join(',');
  const figure = (name: string, value: number, unit: string, better: Figure['better'], extra: Figure['params'] = {}): Figure => ({ scenario: 'cluster', name, value, unit, better, params: { ...params, ...extra } });
  const [first, last] = [nodes[0] as Target, nodes[nodes.length - 1] as Target];
  const workers = load.subscribers;
  const worker = (k: number): Worker => workers[k % workers.length] as Worker;
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-cluster-'));
  try {
    // Subscriber k on node k mod n, each node's in turn ws and json.
    const opening = Array.from({ length: sizes.clusterSubscribers }, (_, k) =>
      worker(k).call('open', { url: (nodes[k % nodes.length] as Target).url, topics: [topics], format: Math.floor(k / nodes.length) % 2 === 0 ? 'ws' : 'json', count: 1, offset: 0, sampleEvery: 1, ids: true, awaitOpen: true }),
    );
    await Promise.all([...opening, worker(0).call('open', { url: last.url, topics: ['latency'], format: 'ws', count: 1, offset: 0, sampleEvery: 1, awaitOpen: true })]);

    // Two unmeasured messages first: the first delivery on a new topic pays one-time costs.
    await load.publisher.call('run', { url: first.url, topics: ['latency'], rate: 10, durationMs: 10_000, limit: 2, concurrency: 1 });
    await collect(load, 2, 10_000);
    const fixed = await load.publisher.call<{ sent: number; failed: number }>('run', { url: first.url, topics: ['latency'], rate: sizes.clusterFixedRate, durationMs: 60_000, limit: sizes.clusterFixedMessages, concurrency: 1 });
    const slow = await collect(load, fixed.sent - fixed.failed, 10_000);
    if (slow.deliveries < fixed.sent - fixed.failed) console.error(`# cluster: the subscription to 'latency' on ${last.url} received ${slow.deliveries} of ${fixed.sent - fixed.failed} acknowledged publishes`);

    const start = performance.now();
    const files = nodes.map((_, i) => join(dir, `ids-${i}.txt`));
    const runs = await Promise.all(nodes.map((node, i) => runWrkRecordingIds({ url: node.url, topics: setup.topics, connections: connectionsOf(i, nodes.length, setup.load), durationSeconds: sizes.clusterSeconds }, files[i] as string)));
    const acknowledged = (await Promise.all(workers.map((w) => w.call<{ acknowledged: number }>('expect', { files }))))[0]?.acknowledged ?? 0;
    const { checked, at } = await settle(load);
    for (const line of checked.missing) console.error(`# cluster: ${line}`);
    const at50 = { rate: sizes.clusterFixedRate, 'received on': nodes.length > 1 ? 'another node' : 'the same node' };
    return [
      figure('publishes/s', acknowledged / sizes.clusterSeconds, 'req/s', 'higher'),
      figure('deliveries/s', checked.messages / ((at - start) / 1000), 'msg/s', 'higher', { subscribers: checked.subscriptions }),
      figure('publish-to-receive p50', percentile(slow.latencies, 50), 'ms', 'lower', at50),
      figure('publish-to-receive p99', percentile(slow.latencies, 99), 'ms', 'lower', at50),
      figure('lost', checked.lost + Math.max(0, fixed.sent - fixed.failed - slow.deliveries), 'msgs', 'lower'),
      figure('duplicated', checked.duplicated, 'msgs', 'lower'),
      figure('publish errors', runs.reduce((sum, r) => sum + r.errors, 0) + fixed.failed, 'requests', 'lower'),
    ];
  } finally {
    await closeSubscribers(load);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Checks the subscribers until none misses an acknowledged publish, or 5 s bring nothing new; with when the last message came. */
async function settle(load: Load): Promise<{ checked: Checked; at: number }> {
  let at = performance.now();
  let checked: Checked = { subscriptions: 0, lost: Infinity, duplicated: 0, messages: -1, missing: [] };
  while (checked.lost > 0 && performance.now() - at < 5000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const parts = await Promise.all(load.subscribers.map((w) => w.call<Checked>('check')));
    const now = parts.reduce((sum, p) => ({ subscriptions: sum.subscriptions + p.subscriptions, lost: sum.lost + p.lost, duplicated: sum.duplicated + p.duplicated, messages: sum.messages + p.messages, missing: [...sum.missing, ...p.missing] }));
    if (now.messages !== checked.messages) at = performance.now();
    checked = now;
  }
  return { checked, at };
}
