import { ObjectId, type Collection, type Db } from 'mongodb';
import { collection } from './concerns.js';

type Key = 'messages' | 'pruned';

interface Counter {
  /** `<node>:<key>`: each document has one writer, the instance that created it. */
  _id: string;
  key: Key;
  value: number;
}

/**
 * Values each instance keeps for itself in a document only it writes, read across all
 * instances as a sum or a maximum: FerretDB 1.24 applies $inc and other updates of a
 * shared document as read-modify-write, losing concurrent ones, so no shared document is
 * updated. An instance's writes are chained so a later value never lands first. A node
 * restarted is a new instance: its predecessor's documents stay and keep counting.
 */
export class NodeCounters {
  /** This instance's name in the documents it writes (here and in held-tallies.ts). */
  readonly node = new ObjectId().toHexString();
  private writes: Promise<unknown> = Promise.resolve();

  private constructor(private readonly counters: Collection<Counter>) {}

  static open(db: Db): NodeCounters {
    return new NodeCounters(collection<Counter>(db, 'cache_counters'));
  }

  /** Sets this instance's `key`. */
  set(key: Key, value: number): Promise<void> {
    const _id = `${this.node}:${key}`;
    const write = this.writes.then(() => this.counters.updateOne({ _id }, { $set: { key, value } }, { upsert: true }));
    this.writes = write.catch(() => undefined);
    return write.then(() => undefined);
  }

  /**
   * Sets `key` of the writer named `owner` rather than this instance's: one document every
   * instance may set to the same value (an import's total), counted in `sum` as any other.
   */
  async setShared(key: Key, owner: string, value: number): Promise<void> {
    await this.counters.updateOne({ _id: `${owner}:${key}` }, { $set: { key, value } }, { upsert: true });
  }

  /** The sum of every instance's `key`. */
  async sum(key: Key): Promise<number> {
    const [result] = await this.counters.aggregate<{ value: number }>([{ $match: { key } }, { $group: { _id: null, value: { $sum: '$value' } } }]).toArray();
    return result?.value ?? 0;
  }

  /** The largest of every instance's `key`, or `none`. */
  async max(key: Key, none: number): Promise<number> {
    // By sorting: FerretDB 1.24 has no $max accumulator.
    const [top] = await this.counters.find({ key }).sort({ value: -1 }).limit(1).toArray();
    return top?.value ?? none;
  }
}
