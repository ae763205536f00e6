import type { Figure, Scenario } from '../figures.js';
import { cpuShare } from '../proc.js';
import { closeSubscribers, openSubscribers, takeAll } from './fanout.js';

const perTopic = 5;
const formats = ['ws', 'sse', 'json'] as const;

/**
 * 5. Mixed: many topics, 5 subscribers each over mixed formats, publishers across the
 * topics at a steady rate — server CPU per 1,000 deliveries/s.
 */
export const mixedScenario: Scenario = async (target, sizes, load) => {
  const topics = Array.from({ length: sizes.mixedTopics }, (_, i) => `mixed${i}`);
  // Each format subscribes to every topic, so every topic gets 5 subscribers across formats.
  for (let i = 0; i < perTopic; i++) await openSubscribers(load, target, topics, formats[i % formats.length] as string, topics.length, 1e9);
  await takeAll(load);
  const { result, share } = await cpuShare(target.pid, async () => {
    await load.publisher.call('run', { url: target.url, topics, rate: sizes.mixedRate, durationMs: sizes.mixedSeconds * 1000, limit: 1e9, concurrency: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    return takeAll(load);
  });
  await closeSubscribers(load);
  const deliveriesPerSecond = result.deliveries / (sizes.mixedSeconds + 0.2);
  const params = { topics: topics.length, subscribers: topics.length * perTopic, rate: sizes.mixedRate };
  const figures: Figure[] = [{ scenario: 'mixed', name: 'mixed deliveries', value: deliveriesPerSecond, unit: 'msg/s', better: 'higher', params }];
  if (share !== undefined) {
    figures.push({ scenario: 'mixed', name: 'mixed CPU per 1k deliveries/s', value: (100 * share) / (deliveriesPerSecond / 1000), unit: '% core', better: 'lower', params });
  }
  return figures;
};
