import type { Figure, Scenario } from '../figures.js';
import { closeSubscribers, openSubscribers } from './fanout.js';

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1000));

/**
 * 3. Idle subscribers: server memory per open idle subscription (RSS and heap delta / N).
 * One format per server: memory freed by an earlier format would hide part of the next.
 */
export const idleScenario =
  (format: 'ws' | 'sse'): Scenario =>
  async (target, sizes, load) => {
    const figures: Figure[] = [];
    const n = sizes.idleSubscribers;
    await settle();
    const rssBefore = target.rss();
    const heapBefore = await target.heapUsed();
    await openSubscribers(load, target, ['idle'], format, n, n + 1);
    await settle();
    const rssAfter = target.rss();
    const heapAfter = await target.heapUsed();
    const params = { subscribers: n, format };
    if (rssBefore !== undefined && rssAfter !== undefined) {
      figures.push({ scenario: 'idle', name: 'idle RSS per subscription', value: (rssAfter - rssBefore) / n / 1024, unit: 'KB', better: 'lower', params });
    }
    if (heapBefore !== undefined && heapAfter !== undefined) {
      figures.push({ scenario: 'idle', name: 'idle heap per subscription', value: (heapAfter - heapBefore) / n / 1024, unit: 'KB', better: 'lower', params });
    }
    await closeSubscribers(load);
    return figures;
  };
