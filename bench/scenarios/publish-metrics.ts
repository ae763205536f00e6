import type { Figure } from '../figures.js';
import type { HttpLoad, HttpLoadResult } from '../load/autocannon.js';
import { startTocsin } from '../targets.js';

const rounds = 2;

/**
 * The publish scenario's metrics variant (Tocsin only): the one-topic publish rate of a
 * fresh server without metrics and of one with enable-metrics, scraped once a second
 * during the run (Prometheus scrapes every 15 s by default: this is the harsher case).
 * Each round starts both afresh, off then on, so neither inherits the other's cache and
 * the machine's drift falls on both; the first run of this variant reused the scenario's
 * target for "off", whose cache then held ~400k messages, and read 40% slower for it.
 */
export async function metricsVariant(run: (l: HttpLoad) => Promise<HttpLoadResult>, load: Omit<HttpLoad, 'url'>): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const metrics of ['off', 'on'] as const) {
      const server = await startTocsin({ settings: metrics === 'on' ? ['--enable-metrics', 'true'] : [] });
      try {
        const { rps, scrapes } = await (metrics === 'on' ? scraped(server.url, () => run({ ...load, url: server.url })) : run({ ...load, url: server.url }).then((r) => ({ rps: r.rps, scrapes: 0 })));
        const params = { topics: load.topics, connections: load.connections, metrics: metrics === 'on' ? 'on, scraped every second' : 'off', round, scrapes };
        figures.push({ scenario: 'publish', name: 'publish rate', value: rps, unit: 'req/s', better: 'higher', params });
      } finally {
        await server.stop();
      }
    }
  }
  return figures;
}

/** Runs `load` while GET /metrics is fetched once a second; fails if any scrape failed. */
async function scraped(url: string, load: () => Promise<HttpLoadResult>): Promise<{ rps: number; scrapes: number }> {
  let [scrapes, failed] = [0, 0];
  const scraper = setInterval(() => {
    fetch(`${url}/metrics`)
      .then(async (res) => {
        await res.text();
        if (res.status === 200) scrapes++;
        else failed++;
      })
      .catch(() => failed++);
  }, 1000);
  try {
    const { rps } = await load();
    if (failed > 0) throw new Error(`metrics variant: ${failed} scrapes failed`);
    return { rps, scrapes };
  } finally {
    clearInterval(scraper);
  }
}
