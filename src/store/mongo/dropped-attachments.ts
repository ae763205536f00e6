import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './duplicate-key.js';
import { collection } from './concerns.js';

interface Dropped {
  /** The message id. */
  _id: string;
  /** The message's expiry: after it nobody replays the message, and `prune` forgets this. */
  expires: number;
}

/**
 * Messages whose attachment expired: the capped log cannot rewrite their JSON, so replay
 * leaves the attachment out of the ones listed here. An ordinary collection, cleaned by
 * `prune`: FerretDB 1.24 refuses TTL indexes (`expireAfterSeconds`).
 */
export class DroppedAttachments {
  private constructor(private readonly dropped: Collection<Dropped>) {}

  static open(db: Db): DroppedAttachments {
    return new DroppedAttachments(collection<Dropped>(db, 'dropped_attachments', 'position'));
  }

  async add(messages: readonly { id: string; expires: number }[]): Promise<void> {
    if (messages.length === 0) return;
    await this.dropped.insertMany(messages.map(({ id, expires }) => ({ _id: id, expires })), { ordered: false }).catch((err: unknown) => {
      // Dropped twice (housekeeping ran again): the first entry stands.
      if (!isDuplicateKey(err)) throw err;
    });
  }

  /** Which of `ids` lost their attachment. */
  async among(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set((await this.dropped.find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
  }

  async prune(now: number): Promise<void> {
    await this.dropped.deleteMany({ expires: { $lte: now } });
  }
}
