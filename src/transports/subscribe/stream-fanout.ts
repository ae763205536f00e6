import { Subscription, type Observer } from 'rxjs';
import type { Outbound } from '../../model/outbound.js';
import type { TopicHub } from '../../streams/hub.js';
import type { TurnFlusher } from './flusher.js';
import { StreamGroup, type GroupMember } from './stream-group.js';

/** A group's member that the fan-out may end: the hub ended the group's topics. */
export interface FanoutMember extends GroupMember {
  /** Ends the stream cleanly after what it received, and leaves the group. */
  end(): void;
}

interface Entry {
  group: StreamGroup<FanoutMember>;
  subscription: Subscription;
}

/**
 * Unfiltered HTTP streams grouped by their set of topics: one group per set, following
 * each of its topics on the hub. A stream of several topics is in one group, not one per
 * topic, so the group receives its topics' events in commit order as the hub delivers
 * them, and that order is what its members get (the order the stream had when each
 * event was pushed to it). When the hub ends a topic's stream (TopicHub.interrupt), the
 * group's members end theirs.
 */
export class StreamFanout {
  private readonly groups = new Map<string, Entry>();

  constructor(
    private readonly hub: TopicHub,
    private readonly flusher: TurnFlusher,
  ) {}

  join(member: FanoutMember, topics: readonly string[]): void {
    const key = keyOf(topics);
    let entry = this.groups.get(key);
    if (!entry) {
      const group = new StreamGroup<FanoutMember>(this.flusher);
      const subscription = new Subscription();
      const follow: Partial<Observer<Outbound>> = {
        next: (event) => group.deliver(event),
        // Each member ends and leaves (HttpStream.end), which empties and drops the group.
        complete: () => {
          for (const m of [...group.members]) m.end();
        },
      };
      // A repeated topic (`/a,a/json`) is followed once: each event is delivered once.
      for (const topic of new Set(topics)) subscription.add(this.hub.topic$(topic).subscribe(follow));
      entry = { group, subscription };
      this.groups.set(key, entry);
    }
    entry.group.add(member);
  }

  leave(member: FanoutMember, topics: readonly string[]): void {
    const key = keyOf(topics);
    const entry = this.groups.get(key);
    if (!entry?.group.remove(member)) return;
    entry.subscription.unsubscribe();
    this.groups.delete(key);
  }
}

/** The same topics in any order and with repeats make one set. */
function keyOf(topics: readonly string[]): string {
  return topics.length === 1 ? (topics[0] as string) : [...new Set(topics)].sort().join(',');
}
