import type { Figure } from '../figures.js';
import type { HttpLoad, HttpLoadResult } from '../load/autocannon.js';
import { cpuPerRequest } from '../proc.js';
import { startTocsin } from '../targets.js';

/** What each fresh server stores: its cache in memory, or nothing (`cache-duration 0`). */
const variants = [
  { cache: 'memory', settings: ['--cache-file', ''] },
  { cache: 'none', settings: ['--cache-duration', '0'] },
] as const;

/**
 * The publish scenario's storage variant (Tocsin only): the one-topic publish rate and CPU
 * per publish of a fresh server with its cache in memory, and of one storing nothing
 * (every publish still batched per turn and answered at its end, without a transaction).
 * Beside the on-disk figure they split a publish's cost into the HTTP and pipeline path,
 * SQLite's work and the file's (its WAL writes and the checkpoints' fsyncs).
 */
export async function storageVariant(run: (l: HttpLoad) => Promise<HttpLoadResult>, load: Omit<HttpLoad, 'url'>): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const { cache, settings } of variants) {
    const server = await startTocsin({ settings: [...settings] });
    try {
      const { result: r, micros } = await cpuPerRequest(server.pid, () => run({ ...load, url: server.url }));
      const params = { topics: load.topics, connections: load.connections, cache };
      figures.push({ scenario: 'publish', name: 'publish rate', value: r.rps, unit: 'req/s', better: 'higher', params });
      if (micros !== undefined) figures.push({ scenario: 'publish', name: 'publish server CPU per request', value: micros, unit: 'µs', better: 'lower', params });
    } finally {
      await server.stop();
    }
  }
  return figures;
}
