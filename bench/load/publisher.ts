/**
 * Publisher load: POSTs benchmark messages (`bench:<epoch ms>;`) round-robin over topics,
 * either at a fixed rate or as fast as `concurrency` requests in flight allow.
 */
import { Agent, request } from 'node:http';
import { serveCommands } from '../worker.js';

interface Run {
  url: string;
  topics: string[];
  /** Messages per second; 0 means as fast as possible. */
  rate: number;
  durationMs: number;
  /** Most messages to send. */
  limit: number;
  concurrency: number;
  /** Extra bytes appended to each body. */
  padding?: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(url: URL, topic: string, pad: string): Promise<number> {
  return new Promise((resolve) => {
    const body = `bench:${performance.timeOrigin + performance.now()};${pad}`;
    const req = request({ host: url.hostname, port: url.port, path: `/${topic}`, method: 'POST', agent, headers: { 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

serveCommands({
  run: async ({ url, topics, rate, durationMs, limit, concurrency, padding = 0 }: Run) => {
    const base = new URL(url);
    const pad = 'p'.repeat(padding);
    const end = performance.now() + durationMs;
    let sent = 0;
    let failed = 0;
    const send = async (): Promise<void> => {
      const topic = topics[sent % topics.length] as string;
      sent++;
      if ((await post(base, topic, pad)) !== 200) failed++;
    };
    if (rate > 0) {
      const start = performance.now();
      const inFlight: Promise<void>[] = [];
      while (performance.now() < end && sent < limit) {
        const due = start + (sent * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        inFlight.push(send());
      }
      await Promise.all(inFlight);
    } else {
      const loop = async (): Promise<void> => {
        while (performance.now() < end && sent < limit) await send();
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
    }
    return { sent, failed };
  },
});
