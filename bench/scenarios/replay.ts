import type { Scenario } from '../figures.js';
import { percentile } from '../proc.js';

const poll = async (url: string): Promise<ArrayBuffer> => (await fetch(`${url}/replay/json?poll=1`)).arrayBuffer();

/** Counts the lines of an NDJSON body. */
const lines = (body: ArrayBuffer): number => new Uint8Array(body).reduce((n, byte) => n + (byte === 10 ? 1 : 0), 0);

/**
 * 4. Replay: `poll=1` of a topic holding N cached messages — time and bytes/s (median of 5).
 * Measured once all N can be read: ntfy answers a publish before its batch is written.
 */
export const replayScenario: Scenario = async (target, sizes, load) => {
  const n = sizes.replayMessages;
  await load.publisher.call('run', { url: target.url, topics: ['replay'], rate: 0, durationMs: 120_000, limit: n, concurrency: 16, padding: 100 });
  const deadline = performance.now() + 10_000;
  while (lines(await poll(target.url)) < n) {
    if (performance.now() > deadline) throw new Error(`replay: ${target.name} did not hold ${n} messages within 10 s of publishing them`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const body = await poll(target.url);
    times.push(performance.now() - start);
    bytes = body.byteLength;
  }
  const ms = percentile(times.sort((a, b) => a - b), 50);
  const params = { messages: n };
  return [
    { scenario: 'replay', name: 'replay time', value: ms, unit: 'ms', better: 'lower', params },
    { scenario: 'replay', name: 'replay throughput', value: bytes / 1024 / 1024 / (ms / 1000), unit: 'MB/s', better: 'higher', params },
    { scenario: 'replay', name: 'replay size', value: bytes / 1024, unit: 'KB', better: 'lower', params },
  ];
};
