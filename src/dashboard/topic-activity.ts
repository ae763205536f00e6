import type { Outbound } from '../model/outbound.js';
import type { BusyTopic } from './frame.js';

/** What one interval brought: totals and the busiest topics. */
export interface Interval {
  messages: number;
  deliveries: number;
  busiest: BusyTopic[];
}

/**
 * Messages and deliveries per topic within the current interval, counted from the live
 * feed while the dashboard is watched (one Map update per event; nothing when nobody
 * watches, see frames.ts). A message's deliveries are this node's live subscribers of
 * its topic when it went live.
 */
export class TopicActivity {
  private counts = new Map<string, BusyTopic>();
  private messages = 0;
  private deliveries = 0;

  constructor(private readonly subscribersOf: (topic: string) => number) {}

  count(events: readonly Outbound[]): void {
    for (const event of events) {
      const topic = event.head.topic;
      const reached = this.subscribersOf(topic);
      this.messages++;
      this.deliveries += reached;
      const busy = this.counts.get(topic);
      if (busy) {
        busy.messages++;
        busy.deliveries += reached;
      } else {
        this.counts.set(topic, { topic, messages: 1, deliveries: reached });
      }
    }
  }

  /** Ends the interval: what it counted, with its `top` busiest topics (most messages first, then name), and starts the next. */
  take(top: number): Interval {
    const busiest = [...this.counts.values()].sort((a, b) => b.messages - a.messages || (a.topic < b.topic ? -1 : 1)).slice(0, top);
    const interval = { messages: this.messages, deliveries: this.deliveries, busiest };
    this.counts = new Map();
    this.messages = 0;
    this.deliveries = 0;
    return interval;
  }
}
