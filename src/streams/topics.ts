import { errors } from '../model/errors.js';

/**
 * The set of topics the server knows: those published or subscribed to, kept while they
 * have subscribers or cached messages. It enforces `global-topic-limit` and the
 * disallowed names, as ntfy's topicsFromIDs does.
 */
export class TopicRegistry {
  private readonly known = new Set<string>();

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
    for (const topic of topics) this.known.add(topic);
  }

  /** Forgets topics that are neither live nor cached. */
  prune(keep: (topic: string) => boolean): void {
    for (const topic of this.known) if (!keep(topic)) this.known.delete(topic);
  }

  seed(topics: Iterable<string>): void {
    for (const topic of topics) this.known.add(topic);
  }

  get size(): number {
    return this.known.size;
  }
}
