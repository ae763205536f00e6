import { randomBytes } from 'node:crypto';
import { MongoBulkWriteError, type Collection, type Db } from 'mongodb';
import { failedWrites, isDuplicateKey } from './duplicate-key.js';
import { collection } from './concerns.js';

interface HeldId {
  _id: string;
  /** The message's expiry: `prune` forgets the id after it. */
  expires: number;
  /** The reservation that holds it (absent in documents of older versions). */
  by?: string;
}

/**
 * The message ids the cache holds, one document each, so that `_id`'s unique index keeps
 * them unique across batches and nodes: a batch reserves its ids here before its log
 * insert, and one holding an id already reserved fails before anything of it is written.
 * (FerretDB 1.24 does not enforce a unique index over the log's `ids` arrays.)
 *
 * Left over: a batch whose process died between reserving and inserting leaves ids that
 * no message holds until they expire; ids are random, so this blocks nothing.
 */
export class MessageIds {
  private constructor(private readonly held: Collection<HeldId>) {}

  static open(db: Db): MessageIds {
    return new MessageIds(collection<HeldId>(db, 'message_ids', 'position'));
  }

  /** Reserves every id of a batch, or none: throws naming the ids already held. */
  async reserve(ids: readonly { id: string; expires: number }[]): Promise<void> {
    const inBatch = new Set<string>();
    const repeated: string[] = [];
    for (const { id } of ids) {
      if (inBatch.has(id)) repeated.push(id);
      inBatch.add(id);
    }
    if (repeated.length > 0) throw new DuplicateIdError(repeated);
    const by = randomBytes(9).toString('base64url');
    try {
      await this.held.insertMany(ids.map(({ id, expires }) => ({ _id: id, expires, by })), { ordered: false });
    } catch (err) {
      // Anything but held ids (a write concern not satisfied, a lost server) is thrown as
      // it is, nothing freed: the ids may be written, and ids are random, so a leftover
      // blocks nothing (see above), while a free sent to a failing primary would only wait.
      if (!(err instanceof MongoBulkWriteError) || !isDuplicateKey(err)) throw err;
      const failed = new Set(failedWrites(err).map((e) => e.index));
      const held = await this.heldByOthers(ids.filter((_, i) => failed.has(i)).map(({ id }) => id), by);
      if (held.length === 0) return;
      await this.free(ids.map(({ id }) => id).filter((id) => !held.includes(id)));
      throw new DuplicateIdError(held);
    }
  }

  /**
   * Which of `ids`, refused as held, another reservation than `by` holds: the driver
   * retries an insert whose answer a cut connection lost, and FerretDB (which keeps no
   * record of retried writes) refuses the ids the first attempt wrote. One equality lookup
   * each: FerretDB reads a whole collection for `$in`.
   */
  private async heldByOthers(ids: readonly string[], by: string): Promise<string[]> {
    const holders = await Promise.all(ids.map((id) => this.held.findOne({ _id: id }, { projection: { by: 1 } })));
    return ids.filter((_, i) => holders[i]?.by !== by);
  }

  /**
   * Reserves the ids not yet held, for an import; answers those already held. Unlike
   * `reserve`, an id held is no failure: the import skips a message the cache has.
   */
  async reserveAbsent(ids: readonly { id: string; expires: number }[]): Promise<Set<string>> {
    try {
      await this.held.insertMany(ids.map(({ id, expires }) => ({ _id: id, expires })), { ordered: false });
      return new Set();
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || !isDuplicateKey(err)) throw err;
      return new Set(failedWrites(err).map((e) => (ids[e.index] as { id: string }).id));
    }
  }

  /** Gives back ids reserved by a batch that did not commit. */
  async free(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.held.deleteMany({ _id: { $in: [...ids] } });
  }

  /** Forgets the ids of messages expired by `now`. */
  async prune(now: number): Promise<void> {
    await this.held.deleteMany({ expires: { $lte: now } });
  }
}

export class DuplicateIdError extends Error {
  constructor(readonly ids: string[]) {
    super(`message id already held: ${ids.join(', ')}`);
    this.name = 'DuplicateIdError';
  }
}
