import type { Figure, Load, Scenario, Sizes } from '../figures.js';
import { percentile } from '../proc.js';
import { startTocsin, type Target } from '../targets.js';
import { ferretDbSkip, startFerretDb } from '../../test/support/ferretdb.js';
import { closeSubscribers, collect, openSubscribers } from './fanout.js';

/**
 * 12. Scale-out (Tocsin only): two nodes on one MongoDB-wire database (FerretDB on
 * PostgreSQL, as the tests use), the publisher on one and the subscribers on the other, so
 * every delivery crossed the database: publish-to-receive latency at a fixed rate and
 * deliveries/s at full speed. The same measured on the harness's own single SQLite node
 * in the same run, for the ratio. Every server here shares this machine's two cores.
 */
export const clusterScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const figures = await crossing('one node, SQLite', target, target, sizes, load);
  const skip = ferretDbSkip();
  if (skip) {
    console.error(`# cluster: two nodes skipped: ${skip}`);
    return figures;
  }
  const ferret = await startFerretDb();
  try {
    const settings = ['--database-url', ferret.url.replace('/?', `/${ferret.databaseName('bench')}?`)];
    const [a, b] = [await startTocsin({ settings }), await startTocsin({ settings })];
    try {
      figures.push(...(await crossing('two nodes, MongoDB (FerretDB)', a, b, sizes, load)));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  } finally {
    await ferret.stop();
  }
  return figures;
};

/** Publishes on `from` to subscribers of `to`: latency at the fan-out scenario's fixed rate, then deliveries at full speed. */
async function crossing(setup: string, from: Target, to: Target, sizes: Sizes, load: Load): Promise<Figure[]> {
  const n = sizes.clusterSubscribers;
  const params = { setup, subscribers: n, format: 'ws' };
  const topic = 'crossing';
  await openSubscribers(load, to, [topic], 'ws', n, 1);
  try {
    await load.publisher.call('run', { url: from.url, topics: [topic], rate: 10, durationMs: 10_000, limit: 2, concurrency: 1 });
    await collect(load, 2 * n, 5000);
    const fixed = await load.publisher.call<{ sent: number }>('run', { url: from.url, topics: [topic], rate: sizes.clusterFixedRate, durationMs: 60_000, limit: sizes.clusterFixedMessages, concurrency: 1 });
    const slow = await collect(load, fixed.sent * n, 10_000);
    const start = performance.now();
    const max = await load.publisher.call<{ sent: number }>('run', { url: from.url, topics: [topic], rate: 0, durationMs: sizes.fanoutMaxSeconds * 1000, limit: 1e9, concurrency: 4 });
    const fast = await collect(load, max.sent * n, 20_000);
    const seconds = (fast.at - start) / 1000;
    const at = { ...params, rate: sizes.clusterFixedRate };
    return [
      { scenario: 'cluster', name: 'publish-to-receive p50', value: percentile(slow.latencies, 50), unit: 'ms', better: 'lower', params: at },
      { scenario: 'cluster', name: 'publish-to-receive p99', value: percentile(slow.latencies, 99), unit: 'ms', better: 'lower', params: at },
      { scenario: 'cluster', name: 'publishes/s', value: max.sent / seconds, unit: 'req/s', better: 'higher', params: { ...params, rate: 'max' } },
      { scenario: 'cluster', name: 'deliveries', value: fast.deliveries / seconds, unit: 'msg/s', better: 'higher', params: { ...params, rate: 'max' } },
      { scenario: 'cluster', name: 'lost', value: max.sent * n - fast.deliveries, unit: 'msgs', better: 'lower', params: { ...params, rate: 'max' } },
    ];
  } finally {
    await closeSubscribers(load);
  }
}
