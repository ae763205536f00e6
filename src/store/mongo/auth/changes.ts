import type { Collection } from 'mongodb';
import { isDuplicateKey, type ChangeDoc } from './collections.js';

/** Change documents kept behind the newest; only the newest is ever read. */
const kept = 64;

/**
 * The numbered changes of access control (collection `auth_changes`), how instances learn
 * of each other's writes: every change inserts the next number after its writes, and
 * every instance polls the newest number (read-cache.ts). The number is claimed by a
 * unique insert of `_id` — on a duplicate-key error another instance took it, so the next
 * is tried — because a counter document bumped with $inc is not atomic on FerretDB 1.24.
 * Numbers are totally ordered, so "the newest moved" never misses a change, as comparing
 * ObjectIds of different processes could within one second.
 */
export class ChangeLog {
  constructor(private readonly changes: Collection<ChangeDoc>) {}

  async newest(): Promise<number> {
    const [doc] = await this.changes.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray();
    return doc?._id ?? 0;
  }

  /** Announces a change, once its writes are done. */
  async announce(): Promise<void> {
    for (;;) {
      const next = (await this.newest()) + 1;
      try {
        await this.changes.insertOne({ _id: next, at: new Date() });
      } catch (err) {
        if (isDuplicateKey(err)) continue;
        throw err;
      }
      if (next % kept === 0) await this.changes.deleteMany({ _id: { $lte: next - kept } });
      return;
    }
  }
}
