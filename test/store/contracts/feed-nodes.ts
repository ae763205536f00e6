import { concatMap, connectable, firstValueFrom, ReplaySubject, take, toArray } from 'rxjs';
import { messageJson, type Message } from '../../../src/model/message.js';
import { Outbound } from '../../../src/model/outbound.js';
import type { LiveFeed } from '../../../src/store/live-feed.js';
import type { MessageCache } from '../../../src/store/message-cache.js';
import { entry } from './cache-messages.js';

/** The events `feed` emits from now on, as they come. */
export function recorder(feed: LiveFeed): { events: Outbound[]; next(count: number): Promise<Outbound[]> } {
  const events$ = connectable(feed.batches$.pipe(concatMap((batch) => batch.events)), { connector: () => new ReplaySubject<Outbound>() });
  events$.connect();
  const events: Outbound[] = [];
  events$.subscribe((e) => events.push(e));
  return { events, next: (count) => firstValueFrom(events$.pipe(take(count), toArray())) };
}

export const idsOf = (events: readonly Outbound[]): string[] => events.map((e) => e.head.id);

/** Commits `messages` on a node as the publisher does: stored through the cache, `Cache: no` ones through the feed. */
export async function publish(node: { cache: MessageCache; feed: LiveFeed }, messages: Message[], uncached: Message[] = []): Promise<number[]> {
  const { seqs } = messages.length > 0 ? await node.cache.add(messages.map((m) => entry(m))) : { seqs: [] };
  await node.feed.committed(uncached.map((m) => Outbound.of(m, messageJson(m))));
  return seqs;
}

/** "p50 … ms, p99 … ms" of latencies in milliseconds. */
export function latencySummary(ms: readonly number[]): string {
  const sorted = [...ms].sort((x, y) => x - y);
  return `p50 ${sorted[Math.floor(sorted.length * 0.5)]?.toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]?.toFixed(1)} ms`;
}
