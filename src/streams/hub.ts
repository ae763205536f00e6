import { Observable, Subject } from 'rxjs';
import type { Outbound } from '../model/outbound.js';

/**
 * The topic hub: one Subject per live topic, created by the first subscriber and dropped
 * with the last. Delivery is synchronous, in call order, so per-topic order is the order
 * of `deliver` calls, which is commit order (see Publisher).
 */
export class TopicHub {
  private readonly subjects = new Map<string, Subject<Outbound>>();
  private highestSeq = 0;

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

  deliver(event: Outbound): void {
    if (event.seq !== undefined && event.seq > this.highestSeq) this.highestSeq = event.seq;
    this.subjects.get(event.head.topic)?.next(event);
  }

  /** The highest commit sequence delivered so far: cached messages up to it reached every live subscriber. */
  get deliveredSeq(): number {
    return this.highestSeq;
  }

  isLive(topic: string): boolean {
    return this.subjects.has(topic);
  }

  get liveTopics(): number {
    return this.subjects.size;
  }
}
