import type { Figure, Scenario } from '../figures.js';
import type { HttpLoad, HttpLoadResult } from '../load/autocannon.js';
import { hasWrk, runWrk } from '../load/wrk.js';
import { startTocsin } from '../targets.js';

const connections = 64;

/**
 * 8. Visitor limits on the publish path (Tocsin only): publish rate to one topic with the
 * limits checked on every request (raised out of the load's reach), and with the load's
 * address exempt, which skips the buckets.
 */
export const limitsScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const client = (await hasWrk()) ? 'wrk' : 'autocannon';
  const run = async (url: string): Promise<number> => {
    const l: HttpLoad = { url, topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0 };
    const r = client === 'wrk' ? await runWrk(l) : await load.autocannon.call<HttpLoadResult>('run', l);
    if (r.errors > 0) throw new Error(`limits scenario: ${r.errors} failed publishes`);
    return r.rps;
  };
  const figure = (limits: string, value: number): Figure => ({
    scenario: 'limits', name: 'publish rate', value, unit: 'req/s', better: 'higher', params: { limits, connections, client },
  });
  const figures = [figure('on', await run(target.url))];
  const exempt = await startTocsin({ settings: ['--visitor-request-limit-exempt-hosts', '127.0.0.1'] });
  try {
    figures.push(figure('off (exempt)', await run(exempt.url)));
  } finally {
    await exempt.stop();
  }
  return figures;
};
