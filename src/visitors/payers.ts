import { LruMap } from '../model/lru-map.js';
import { dayMs, type Visitor } from './visitor.js';

interface Bill {
  topic: string;
  payer: Visitor;
}

/**
 * visitor-subscriber-rate-limiting: UnifiedPush topics and the subscriber their publishes
 * are billed to (ntfy's topic.rateVisitor). A bill lasts while its subscriber is subscribed
 * or was seen within a day, as ntfy's.
 *
 * Bounded: at most `capacity` bills (twice global-topic-limit), least recently billed
 * evicted first, except those whose topic has a subscriber. Those are at most
 * global-topic-limit (every subscribed topic is admitted by the topic registry and stays
 * while subscribed), so an eviction always finds others and a live UnifiedPush app never
 * loses its bill to a flood of subscriptions (it would answer 507/50701 until it
 * resubscribed). An evicted bill fails closed: that topic's publishes get 50701.
 */
export class Payers {
  private readonly bills: LruMap<string, Bill>;

  constructor(capacity: number, isLive: (topic: string) => boolean, now: () => number = Date.now) {
    this.bills = new LruMap(capacity, { pinned: (bill) => isLive(bill.topic), now });
  }

  /** Bills publishes to `topic` to `subscriber` from now on (the last subscriber wins, as ntfy). */
  billTo(topic: string, subscriber: Visitor): void {
    this.bills.set(topic, { topic, payer: subscriber });
  }

  /** Who pays for publishes to `topic`: its UnifiedPush subscriber, while subscribed or seen within a day. */
  payer(topic: string, now: number): Visitor | undefined {
    const bill = this.bills.get(topic);
    if (bill && stale(bill, now)) {
      this.bills.delete(topic);
      return undefined;
    }
    return bill?.payer;
  }

  /** Housekeeping: drops bills gone stale, visiting only those billed over a day ago. */
  forget(now: number): void {
    this.bills.expire(now - dayMs, (bill) => stale(bill, now));
  }

  get size(): number {
    return this.bills.size;
  }

  /** Entries touched by evictions and expiry (for tests). */
  get work(): number {
    return this.bills.work;
  }
}

function stale(bill: Bill, now: number): boolean {
  return bill.payer.subscriptions === 0 && now - bill.payer.seenAt > dayMs;
}
