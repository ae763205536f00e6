import type { Figure, Load, Scenario } from '../figures.js';
import { cpuSeconds, percentile } from '../proc.js';
import type { Target } from '../targets.js';

interface Taken {
  deliveries: number;
  latencies: number[];
}

/** Opens `count` subscriptions split over the subscriber processes. */
export async function openSubscribers(load: Load, target: Target, topics: string[], format: string, count: number, sampleEvery: number): Promise<void> {
  const share = Math.ceil(count / load.subscribers.length);
  await Promise.all(
    load.subscribers.map((w, i) => w.call('open', { url: target.url, topics, format, count: Math.max(0, Math.min(share, count - i * share)), offset: i * share, sampleEvery })),
  );
}

export async function takeAll(load: Load): Promise<Taken> {
  const parts = await Promise.all(load.subscribers.map((w) => w.call<Taken>('take')));
  return { deliveries: parts.reduce((n, p) => n + p.deliveries, 0), latencies: parts.flatMap((p) => p.latencies).sort((a, b) => a - b) };
}

export async function closeSubscribers(load: Load): Promise<void> {
  await Promise.all(load.subscribers.map((w) => w.call('close')));
}

/** Waits until `expected` deliveries arrived (or `timeoutMs` passed); returns them and when the last came. */
export async function collect(load: Load, expected: number, timeoutMs: number): Promise<{ deliveries: number; latencies: number[]; at: number }> {
  const deadline = performance.now() + timeoutMs;
  let deliveries = 0;
  const latencies: number[] = [];
  let at = performance.now();
  while (deliveries < expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const t = await takeAll(load);
    if (t.deliveries > 0) at = performance.now();
    deliveries += t.deliveries;
    for (const l of t.latencies) latencies.push(l);
  }
  return { deliveries, latencies: latencies.sort((a, b) => a - b), at };
}

const subscriberCpu = (load: Load): number => load.subscribers.reduce((sum, w) => sum + (cpuSeconds(w.pid) ?? 0), 0);

/**
 * 2. Fan-out: one topic with N subscribers per format; a publisher at a fixed rate
 * (publish-to-receive latency, timestamped in the message) and then as fast as it can
 * (deliveries/s over all subscribers), with the subscriber processes' CPU beside it.
 */
export const fanoutScenario: Scenario = async (target, sizes, load) => {
  const figures: Figure[] = [];
  await warmUp(target, sizes.fanoutFormats, load);
  for (const n of sizes.fanoutSubscribers) {
    for (const format of sizes.fanoutFormats) {
      const topic = `fan${n}${format}`;
      const params = { subscribers: n, format };
      await openSubscribers(load, target, [topic], format, n, Math.max(1, Math.floor(n / 200)));
      // Two unmeasured messages first: the first delivery on a new topic pays one-time costs.
      await load.publisher.call('run', { url: target.url, topics: [topic], rate: 10, durationMs: 10_000, limit: 2, concurrency: 1 });
      await collect(load, 2 * n, 5000);
      const fixed = await load.publisher.call<{ sent: number }>('run', { url: target.url, topics: [topic], rate: sizes.fanoutFixedRate, durationMs: 60_000, limit: sizes.fanoutFixedMessages, concurrency: 1 });
      const slow = await collect(load, fixed.sent * n, 5000);
      for (const [p, label] of [[50, 'p50'], [99, 'p99'], [99.9, 'p99.9']] as const) {
        figures.push({ scenario: 'fanout', name: `fan-out ${label} at fixed rate`, value: percentile(slow.latencies, p), unit: 'ms', better: 'lower', params: { ...params, rate: sizes.fanoutFixedRate } });
      }
      const cpuBefore = subscriberCpu(load);
      const serverBefore = cpuSeconds(target.pid);
      const start = performance.now();
      const max = await load.publisher.call<{ sent: number }>('run', { url: target.url, topics: [topic], rate: 0, durationMs: sizes.fanoutMaxSeconds * 1000, limit: 1e9, concurrency: sizes.fanoutPublishers });
      const fast = await collect(load, max.sent * n, 10_000);
      const seconds = (fast.at - start) / 1000;
      const serverAfter = cpuSeconds(target.pid);
      figures.push(
        { scenario: 'fanout', name: 'fan-out deliveries', value: fast.deliveries / seconds, unit: 'msg/s', better: 'higher', params: { ...params, rate: 'max' } },
        { scenario: 'fanout', name: 'fan-out lost', value: max.sent * n - fast.deliveries, unit: 'msgs', better: 'lower', params: { ...params, rate: 'max' } },
        { scenario: 'fanout', name: 'fan-out subscriber CPU', value: (100 * (subscriberCpu(load) - cpuBefore)) / seconds, unit: '% core', better: 'lower', params: { ...params, rate: 'max' } },
      );
      if (serverBefore !== undefined && serverAfter !== undefined) {
        figures.push({ scenario: 'fanout', name: 'fan-out server CPU', value: (100 * (serverAfter - serverBefore)) / seconds, unit: '% core', better: 'lower', params: { ...params, rate: 'max' } });
      }
      await closeSubscribers(load);
    }
  }
  return figures;
};

/**
 * A second of fan-out at full rate in each format before anything is measured, as a
 * benchmark of a JIT-compiled server needs: without it the first combination measured on
 * a fresh process met code still interpreted (10 WebSocket subscribers: p50 3.1 ms first,
 * 1.7 ms when measured later in the same run), and the harness's own workers were as cold.
 * Every server gets the same, so ntfy's figures are taken the same way.
 */
async function warmUp(target: Target, formats: readonly string[], load: Load): Promise<void> {
  const subscribers = 10;
  for (const format of formats) {
    const topic = `warmup${format}`;
    await openSubscribers(load, target, [topic], format, subscribers, 1);
    const { sent } = await load.publisher.call<{ sent: number }>('run', { url: target.url, topics: [topic], rate: 0, durationMs: 1000, limit: 1e9, concurrency: 4 });
    await collect(load, sent * subscribers, 5000);
    await closeSubscribers(load);
  }
}
