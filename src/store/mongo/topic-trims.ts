import type { Collection, Db } from 'mongodb';
import type { Trimmed } from '../message-cache.js';
import { collection } from './concerns.js';
import type { LogShards } from './log-shards.js';
import { found, replayed } from './message-log-replay.js';
import { byTimeThenPosition } from './newest-within.js';

/** A topic's trim: its messages at or before (time, pos) in replay order are dropped. */
interface Floor {
  /** The topic. */
  _id: string;
  time: number;
  pos: number;
  /** The latest expiry among what it dropped: after it the log replays none of them anyway, and `prune` forgets it. */
  expires: number;
}

/**
 * `trim` on the capped log, which cannot delete: as expiry is applied at query time, a trim
 * is a floor per topic that replays apply (`floorOf`), kept in an ordinary collection
 * until everything under it has expired. `count` and `topics` go on counting the messages
 * under a floor until they expire (the tallies count commits by expiry, not by topic).
 */
export class TopicTrims {
  private constructor(
    private readonly shards: LogShards,
    private readonly floors: Collection<Floor>,
  ) {}

  static open(db: Db, shards: LogShards): TopicTrims {
    return new TopicTrims(shards, collection<Floor>(db, 'topic_floors', 'position'));
  }

  /** The floor of `topic`'s replays: a message at or before it (time, then position) is dropped. */
  async floorOf(topic: string): Promise<Omit<Floor, '_id'> | undefined> {
    return (await this.floors.findOne({ _id: topic })) ?? undefined;
  }

  /**
   * Reads the topic's messages above its floor (one equality read, as a replay's), and
   * raises the floor to the newest of those beyond the newest `keep`. Run by one node at a
   * time (the shared housekeeping), so the read and the write need no lock.
   */
  async trim(topic: string, keep: number, now: number): Promise<Trimmed> {
    const floor = await this.floorOf(topic);
    const held = new NewestKept(keep);
    for await (const batch of this.shards.of(topic).batches.find({ topics: topic })) {
      for (const { event: e, pos } of found(batch)) {
        const at = { time: e.time, pos, expires: e.expires };
        if (e.topic === topic && replayed.has(e.kind) && e.expires > now && (!floor || byTimeThenPosition(at, floor) > 0)) held.offer(at);
      }
    }
    const { count, newest, expires } = held.dropped();
    if (count === 0 || !newest) return { count: 0, newest: 0 };
    await this.floors.replaceOne({ _id: topic }, { time: newest.time, pos: newest.pos, expires: Math.max(expires, floor?.expires ?? 0) }, { upsert: true });
    return { count, newest: newest.time };
  }

  async prune(now: number): Promise<void> {
    await this.floors.deleteMany({ expires: { $lte: now } });
  }
}

type At = Omit<Floor, '_id'>;

/**
 * The newest `keep` of the messages offered, in any order, and a summary of the others:
 * held in a list sorted down to `keep` whenever it doubles, so a trim holds O(keep)
 * entries however many messages the topic has in the log.
 */
class NewestKept {
  private held: At[] = [];
  private count = 0;
  private newest: At | undefined;
  private expires = 0;

  constructor(private readonly keep: number) {}

  offer(at: At): void {
    this.held.push(at);
    if (this.held.length >= 2 * this.keep + 1024) this.cut();
  }

  dropped(): { count: number; newest: At | undefined; expires: number } {
    this.cut();
    return { count: this.count, newest: this.newest, expires: this.expires };
  }

  private cut(): void {
    if (this.held.length <= this.keep) return;
    this.held.sort(byTimeThenPosition);
    const gone = this.held.slice(0, this.held.length - this.keep);
    this.held = this.held.slice(this.held.length - this.keep);
    this.count += gone.length;
    const last = gone[gone.length - 1] as At;
    if (!this.newest || byTimeThenPosition(last, this.newest) > 0) this.newest = last;
    this.expires = gone.reduce((latest, g) => Math.max(latest, g.expires), this.expires);
  }
}
