import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './duplicate-key.js';
import { ensureIndexes } from './indexes.js';
import type { LogEvent } from './message-log.js';
import { collection } from './concerns.js';

/** A scheduled message not yet released: its event as the log recorded it, and its position there. */
export interface WaitingMessage extends Omit<LogEvent, 'id' | 'kind'> {
  _id: string;
  pos: number;
}

/** What a claim of a waiting message needs of it (see ReleaseClaims). */
export type WaitingRef = Pick<WaitingMessage, '_id' | 'topic' | 'expires' | 'pos'>;

/**
 * Scheduled messages waiting for their time, in an ordinary collection: the capped log may
 * drop a batch long before a message scheduled days ahead is due, so the message is kept
 * here from the commit of its batch until a release or a replacement claims it (see
 * release-claims.ts: the claim decides, this collection follows). A message whose
 * process died between its log insert and this copy is still found in the log by
 * `release` while the log holds it.
 */
export class ScheduledMessages {
  private constructor(private readonly waiting: Collection<WaitingMessage>) {}

  static async open(db: Db): Promise<ScheduledMessages> {
    const waiting = collection<WaitingMessage>(db, 'scheduled_messages', 'position');
    await ensureIndexes(waiting, [{ key: { topic: 1, sid: 1 }, name: 'topic_sid' }]);
    return new ScheduledMessages(waiting);
  }

  /** Keeps the waiting events of a committed batch; one already kept stays as it is. */
  async hold(events: readonly { event: LogEvent; pos: number }[]): Promise<void> {
    if (events.length === 0) return;
    const docs = events.map(({ event: { id, kind: _kind, ...rest }, pos }) => ({ _id: id, ...rest, pos }));
    await this.waiting.insertMany(docs, { ordered: false }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }

  get(id: string): Promise<WaitingMessage | null> {
    return this.waiting.findOne({ _id: id });
  }

  /** The messages of `topic` waiting under sequence id `sid`. */
  under(topic: string, sid: string): Promise<WaitingRef[]> {
    return this.waiting.find({ topic, sid }, { projection: { _id: 1, topic: 1, expires: 1, pos: 1 } }).toArray();
  }

  inTopic(topic: string): Promise<WaitingMessage[]> {
    return this.waiting.find({ topic }).toArray();
  }

  /** Forgets messages that were claimed. */
  async remove(ids: readonly string[]): Promise<void> {
    // One equality delete each: FerretDB 1.24 would read the whole collection for an `$in`.
    if (ids.length > 0) await this.waiting.bulkWrite(ids.map((_id) => ({ deleteOne: { filter: { _id } } })), { ordered: false });
  }

  count(): Promise<number> {
    return this.waiting.countDocuments();
  }

  async topics(): Promise<string[]> {
    return (await this.waiting.distinct('topic')) as string[];
  }
}
