import type { Figure, Scenario } from '../figures.js';
import { cpuPerRequest, cpuSeconds, runQueueSeconds } from '../proc.js';
import type { HttpLoad, HttpLoadResult } from '../load/autocannon.js';
import { hasWrk, runWrk } from '../load/wrk.js';
import { metricsVariant } from './publish-metrics.js';
import { storageVariant } from './publish-storage.js';

const connections = 64;
/** The lone publisher's rate: far below one connection's capacity, so each publish goes alone. */
const loneRate = 100;

/**
 * 1. Publish: small POSTs to one topic and to 10,000 random topics, no subscribers,
 * 64 connections — requests/s, latency and the server's CPU per request (all threads;
 * far steadier than requests/s on a shared machine); then p99 at half the measured rate.
 */
export const publishScenario: Scenario = async (target, sizes, load) => {
  const wrk = await hasWrk();
  const client = wrk ? 'wrk' : 'autocannon';
  const run = (l: HttpLoad): Promise<HttpLoadResult> => (wrk && l.rate === 0 ? runWrk(l) : load.autocannon.call<HttpLoadResult>('run', l));
  const figures: Figure[] = [];
  const fig = (name: string, value: number, unit: string, better: Figure['better'], params: Figure['params']): void => {
    figures.push({ scenario: 'publish', name, value, unit, better, params: { connections, ...params } });
  };
  let oneTopicRps = 0;
  for (const topics of [1, 10000]) {
    const { result: r, micros } = await cpuPerRequest(target.pid, () => run({ url: target.url, topics, connections, durationSeconds: sizes.publishSeconds, rate: 0 }));
    if (topics === 1) oneTopicRps = r.rps;
    fig('publish rate', r.rps, 'req/s', 'higher', { topics, client });
    fig('publish p50', r.p50, 'ms', 'lower', { topics, client });
    fig('publish p99', r.p99, 'ms', 'lower', { topics, client });
    if (micros !== undefined) fig('publish server CPU per request', micros, 'µs', 'lower', { topics, client });
  }
  // Latency at half the measured rate, from evenly spaced requests (autocannon's rate mode
  // sends in bursts, which measures its own queueing).
  const half = Math.max(1, Math.round(oneTopicRps / 2));
  const pace = (seconds: number, rate = half, conns = connections): Promise<{ p50: number; p99: number; p999: number; lagP99: number }> =>
    load.paced.call('run', { url: target.url, topic: 'bench', rate, durationMs: seconds * 1000, connections: conns });
  await pace(Math.max(1, sizes.publishSeconds / 5)); // warm-up at the new rate, not measured
  // The server's CPU and its threads' wait for a core tell a server that cannot keep up
  // from one that other processes on its core keep from running (a shared machine).
  const [cpuBefore, waitBefore, start] = [cpuSeconds(target.pid), runQueueSeconds(target.pid), performance.now()];
  const paced = await pace(sizes.publishSeconds);
  const [cpuAfter, waitAfter, seconds] = [cpuSeconds(target.pid), runQueueSeconds(target.pid), (performance.now() - start) / 1000];
  const halfParams = { topics: 1, load: '50%', client: 'paced' };
  fig('publish p50 at half rate', paced.p50, 'ms', 'lower', halfParams);
  fig('publish p99 at half rate', paced.p99, 'ms', 'lower', halfParams);
  // The latencies count from each request's due time, so the client's own lateness (its
  // core taken by other processes) is in them too: this tells such a round apart.
  fig('publish paced client lag p99 at half rate', paced.lagP99, 'ms', 'lower', halfParams);
  if (cpuBefore !== undefined && cpuAfter !== undefined) fig('publish server CPU at half rate', (100 * (cpuAfter - cpuBefore)) / seconds, '% core', 'lower', halfParams);
  if (waitBefore !== undefined && waitAfter !== undefined) fig('publish server waiting for its core at half rate', (100 * (waitAfter - waitBefore)) / seconds, '% of a core', 'lower', halfParams);
  figures.push({ scenario: 'publish', name: 'publish half rate', value: half, unit: 'req/s', better: 'higher', params: halfParams });
  // A lone publisher (issue 39): one connection, one publish at a time, as most topics of a
  // public instance see; what it waits is the pipeline's own latency, with nothing to batch.
  const lone = await pace(sizes.publishSeconds, loneRate, 1);
  const loneParams = { topics: 1, connections: 1, rate: loneRate, client: 'paced' };
  fig('publish lone p50', lone.p50, 'ms', 'lower', loneParams);
  fig('publish lone p99', lone.p99, 'ms', 'lower', loneParams);
  fig('publish lone p99.9', lone.p999, 'ms', 'lower', loneParams);
  if (target.name === 'tocsin') {
    const oneTopic = { topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0 };
    figures.push(...(await metricsVariant(run, oneTopic)), ...(await storageVariant(run, oneTopic)));
  }
  return figures;
};
