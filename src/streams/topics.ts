import { errors } from '../model/errors.js';

/**
 * The topics the server knows: those published or subscribed to, kept while they have
 * subscribers or were used within the cache duration (so they may hold cached messages).
 * It enforces `global-topic-limit` and the disallowed names, as ntfy's topicsFromIDs does.
 * It tracks use itself rather than asking the cache, whose topic scan stalled the event
 * loop for tens of milliseconds once a minute on a large cache.
 */
export class TopicRegistry {
  /** Topic → when it was last used (ms). */
  private readonly known = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly disallowed: ReadonlySet<string>,
  ) {}

  /** Admits every topic or none: a disallowed name or the limit rejects the request. */
  admit(topics: readonly string[]): void {
    let added = 0;
    for (const topic of topics) {
      if (this.disallowed.has(topic)) throw errors.topicDisallowed;
      if (!this.known.has(topic)) added++;
    }
    if (added > 0 && this.known.size + added > this.limit) throw errors.tooManyTopics;
    const now = Date.now();
    for (const topic of topics) this.known.set(topic, now);
  }

  /**
   * `admit` for a subscription: there a disallowed name is 40009, as ntfy's
   * topicsFromPath reports it (a publish says 40010). The topic limit stays 42904, which
   * says what went wrong (ntfy reports it as 40009 too).
   */
  admitSubscription(topics: readonly string[]): void {
    try {
      this.admit(topics);
    } catch (err) {
      throw err === errors.topicDisallowed ? errors.topicInvalid : err;
    }
  }

  /** Forgets topics without subscribers that were last used before `cutoff` (ms). */
  prune(isLive: (topic: string) => boolean, cutoff: number): void {
    for (const [topic, lastUsed] of this.known) if (lastUsed < cutoff && !isLive(topic)) this.known.delete(topic);
  }

  /** Topics found in the cache at startup count as used now. */
  seed(topics: Iterable<string>): void {
    const now = Date.now();
    for (const topic of topics) this.known.set(topic, now);
  }

  get size(): number {
    return this.known.size;
  }
}
