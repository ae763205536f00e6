import { Observable, Subject, type Subscription } from 'rxjs';
import type { Outbound } from '../model/outbound.js';
import type { FeedBatch } from '../store/live-feed.js';

/** What the hub reports as it delivers (the metrics); each call must be O(1). */
export interface DeliveryObserver {
  /** One event handed to the hub's subscribers `seconds` after its batch committed. */
  delivered(seconds: number): void;
}

/**
 * The topic hub: one Subject per live topic, created by the first subscriber and dropped
 * with the last. It follows the store's live feed and delivers synchronously, in the
 * feed's order, so per-topic order is commit order (see LiveFeed).
 *
 * A topic's stream completes only when the hub interrupts it (the feed lost events):
 * whoever follows one ends the client streams it serves, so that their clients reconnect
 * with `since=` and read what the cache still holds.
 */
export class TopicHub {
  private readonly subjects = new Map<string, Subject<Outbound>>();

  topic$(name: string): Observable<Outbound> {
    return new Observable<Outbound>((subscriber) => {
      let subject = this.subjects.get(name);
      if (!subject) {
        subject = new Subject<Outbound>();
        this.subjects.set(name, subject);
      }
      const inner = subject.subscribe(subscriber);
      const owner = subject;
      return () => {
        inner.unsubscribe();
        if (!owner.observed && this.subjects.get(name) === owner) this.subjects.delete(name);
      };
    });
  }

  /** Delivers every event of `batches$` (a LiveFeed's) to its topic's subscribers until it completes. */
  follow(batches$: Observable<FeedBatch>, observer?: DeliveryObserver): Subscription {
    return batches$.subscribe(({ events, committedAt }) => {
      for (const event of events) {
        this.subjects.get(event.head.topic)?.next(event);
        if (observer) observer.delivered((performance.now() - committedAt) / 1000);
      }
    });
  }

  /**
   * Completes the stream of every live topic `covers` (by default all), those still
   * attaching (a subscription holding its topics while it reads the cache) included: the
   * feed lost a range of a log, whose events may have been of any of that log's topics
   * (LiveFeed.lost$). Subscribers that attach afterwards get fresh streams.
   */
  interrupt(covers: (topic: string) => boolean = () => true): void {
    const ended = [...this.subjects].filter(([topic]) => covers(topic));
    for (const [topic] of ended) this.subjects.delete(topic);
    for (const [, subject] of ended) subject.complete();
  }

  isLive(topic: string): boolean {
    return this.subjects.has(topic);
  }

  get liveTopics(): number {
    return this.subjects.size;
  }
}
