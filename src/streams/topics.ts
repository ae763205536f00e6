import { errors } from '../model/errors.js';
import { LruMap } from '../model/lru-map.js';

interface Use {
  topic: string;
  /** When it was last published or subscribed to (ms). */
  at: number;
}

/**
 * The topics the server knows: those published or subscribed to, kept while they have
 * subscribers or were used within the cache duration (so they may hold cached messages).
 * It enforces `global-topic-limit` and the disallowed names, as ntfy's topicsFromIDs does.
 * It tracks use itself rather than asking the cache, whose topic scan stalled the event
 * loop for tens of milliseconds once a minute on a large cache.
 *
 * Bounded by global-topic-limit (admit refuses new topics past it, 42904), at O(1) per
 * topic of a request. The table is kept in order of last move, so pruning walks only the
 * topics not moved within the cache duration — those it drops, and the ones used or live
 * since, which it moves to the young end — never the whole table.
 */
export class TopicRegistry {
  /** Never evicts (its capacity is unreachable): admit keeps it to the limit, prune empties it. */
  private readonly known: LruMap<string, Use>;

  constructor(
    private readonly limit: number,
    private readonly disallowed: ReadonlySet<string>,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new LruMap(Number.MAX_SAFE_INTEGER, { now });
  }

  /**
   * Admits every topic or none: a disallowed name (40010) or the limit (42904) rejects the
   * request. The transports' topic-limit guard calls it, and names the errors per route.
   */
  admit(topics: readonly string[]): void {
    let added = 0;
    for (const topic of topics) {
      if (this.disallowed.has(topic)) throw errors.topicDisallowed;
      if (!this.known.has(topic)) added++;
    }
    if (added > 0 && this.known.size + added > this.limit) throw errors.tooManyTopics;
    this.use(topics);
  }

  /** Forgets topics without subscribers that were last used before `cutoff` (ms). */
  prune(isLive: (topic: string) => boolean, cutoff: number): void {
    this.known.expire(cutoff, (use) => use.at < cutoff && !isLive(use.topic));
  }

  /** Topics found in the cache at startup count as used now. */
  seed(topics: Iterable<string>): void {
    this.use(topics);
  }

  get size(): number {
    return this.known.size;
  }

  /** Entries touched by pruning (for tests: only the old ones). */
  get work(): number {
    return this.known.work;
  }

  private use(topics: Iterable<string>): void {
    const now = this.now();
    for (const topic of topics) {
      const use = this.known.peek(topic);
      if (use) use.at = now;
      else this.known.set(topic, { topic, at: now });
    }
  }
}
