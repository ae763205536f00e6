/** The wire formats a subscription may use (the four subscribe endpoints). */
export const subscribeFormats = ['json', 'sse', 'raw', 'ws'] as const;
export type SubscribeFormat = (typeof subscribeFormats)[number];

/**
 * This node's live subscriptions counted by wire format and by topic, kept as they open
 * and close (O(topics) each, nothing per message), for the live dashboard: the open
 * subscriptions by format, and how many subscribers each delivered message reached.
 */
export class SubscriptionTally {
  private readonly formats = new Map<string, number>(subscribeFormats.map((f) => [f, 0]));
  private readonly topics = new Map<string, number>();

  opened(format: string, topics: readonly string[]): void {
    this.formats.set(format, (this.formats.get(format) ?? 0) + 1);
    for (const topic of topics) this.topics.set(topic, (this.topics.get(topic) ?? 0) + 1);
  }

  closed(format: string, topics: readonly string[]): void {
    this.formats.set(format, (this.formats.get(format) ?? 1) - 1);
    for (const topic of topics) {
      const left = (this.topics.get(topic) ?? 1) - 1;
      if (left > 0) this.topics.set(topic, left);
      else this.topics.delete(topic);
    }
  }

  /** Open subscriptions of every format, 0 for a format without any. */
  byFormat(): Record<SubscribeFormat, number> {
    const counts = { json: 0, sse: 0, raw: 0, ws: 0 };
    for (const format of subscribeFormats) counts[format] = this.formats.get(format) ?? 0;
    return counts;
  }

  /** Live subscriptions to `topic` (a filtered one counts whether or not its filter passes a message). */
  subscribersOf(topic: string): number {
    return this.topics.get(topic) ?? 0;
  }
}
