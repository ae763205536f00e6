import { errors } from '../model/errors.js';
import { LruMap } from '../model/lru-map.js';

interface Use {
  topic: string;
  /** When it was last published or subscribed to (ms). */
  at: number;
  /** Subscriptions admitted to it and not yet ended (polls while they run). */
  holders: number;
  /** Published to, or found in the cache at startup: it may hold cached messages. */
  published: boolean;
}

/**
 * The topics the server knows: those published or subscribed to. A topic that was
 * published to is kept while it has subscribers or was used within the cache duration
 * (so it may hold cached messages); one only subscribed to is kept while a subscription
 * holds it and goes when the last one ends — otherwise polls naming thousands of fresh
 * names would fill the table for the cache duration (issue 33). It enforces
 * `global-topic-limit` and the disallowed names, as ntfy's topicsFromIDs does. It tracks
 * use itself rather than asking the cache, whose topic scan stalled the event loop for
 * tens of milliseconds once a minute on a large cache.
 *
 * Bounded by global-topic-limit (admit refuses new topics past it, 42904), at O(1) per
 * topic of a request. The table is kept in order of last move, so pruning walks only the
 * topics not moved within the cache duration — those it drops, and the ones used or live
 * since, which it moves to the young end — never the whole table.
 */
export class TopicRegistry {
  /** Never evicts (its capacity is unreachable): admit keeps it to the limit, leave and prune empty it. */
  private readonly known: LruMap<string, Use>;

  constructor(
    private readonly limit: number,
    private readonly disallowed: ReadonlySet<string>,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new LruMap(Number.MAX_SAFE_INTEGER, { now });
  }

  /**
   * Admits every topic or none: a disallowed name (40010), the limit (42904) or `create`,
   * told how many of them are new and throwing to refuse (the visitor's topic-creation
   * bucket, 42911), rejects the request, in ntfy's order. The transports' topic-limit
   * guard calls it, and names the errors per route. A subscription holds its topics until
   * it calls `leave`.
   */
  admit(topics: readonly string[], by: 'publish' | 'subscribe', create?: (count: number) => void): void {
    let added = 0;
    for (const topic of topics) {
      if (this.disallowed.has(topic)) throw errors.topicDisallowed;
      if (!this.known.has(topic)) added++;
    }
    if (added > 0 && this.known.size + added > this.limit) throw errors.tooManyTopics;
    if (added > 0) create?.(added);
    this.use(topics, by === 'publish', by === 'subscribe' ? 1 : 0);
  }

  /** A subscription admitted to `topics` ended: those no longer held and never published to go now. */
  leave(topics: readonly string[]): void {
    for (const topic of topics) {
      const use = this.known.peek(topic);
      if (!use) continue;
      use.holders--;
      if (use.holders === 0 && !use.published) this.known.delete(topic);
    }
  }

  /** Forgets topics without subscribers that were last used before `cutoff` (ms). */
  prune(isLive: (topic: string) => boolean, cutoff: number): void {
    this.known.expire(cutoff, (use) => use.at < cutoff && use.holders === 0 && !isLive(use.topic));
  }

  /** Topics found in the cache at startup count as published now. */
  seed(topics: Iterable<string>): void {
    this.use(topics, true, 0);
  }

  get size(): number {
    return this.known.size;
  }

  /** Entries touched by pruning (for tests: only the old ones). */
  get work(): number {
    return this.known.work;
  }

  private use(topics: Iterable<string>, published: boolean, holders: number): void {
    const now = this.now();
    for (const topic of topics) {
      const use = this.known.peek(topic);
      if (use) {
        use.at = now;
        use.holders += holders;
        use.published ||= published;
      } else {
        this.known.set(topic, { topic, at: now, holders, published });
      }
    }
  }
}
