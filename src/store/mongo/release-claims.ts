import type { Collection, Db } from 'mongodb';
import { collection } from './concerns.js';
import { isDuplicateKey } from './duplicate-key.js';
import { lookUp } from './log-lookups.js';

interface ClaimRecord {
  /** The claimed message's id: unique, so one claim per message. */
  _id: string;
  /** The chain head its claimant knew before claiming: the claiming batch, if written, lies after it. */
  after: number;
  /** The message's expiry: `prune` forgets the claim after it (0: never). */
  expires: number;
  /** The claiming batch's position, once written. */
  pos?: number;
}

/** Past this many ids, `among` asks with one `$in`. */
const lookUpAtMost = 32;

/** What `take` found: this call's claim, or one made before by any node. */
export type Taken = { by: 'us' } | { by: 'other'; settled: boolean; after: number };

/**
 * Who took each scheduled message (released or replaced), in an ordinary collection that
 * outlives the capped log: the log's unique `claim` alone decides only while the log holds
 * the claiming batch, and a waiting copy left behind (scheduled.ts) could be released again
 * once the batch rolled out.
 *
 * The order, and why (see MongoMessageCache.claimed): 1. this claim, 2. the claiming batch
 * in the log (still carrying the unique `claim`), 3. `settle` with its position, 4. the
 * waiting copy removed. The claim comes first because it is the one that lasts: the other
 * order, after a crash between the two writes, leaves a claim only the capped log records.
 * Every crash point:
 * - before 1: nothing happened; the job runs again and releases.
 * - between 1 and 2: a pending claim and no batch. A later claimant (the job run again, or
 *   another node at once) may go on only while the log holds every position after
 *   `after`: then the log's unique `claim` refuses it if any batch claimed the message,
 *   and of two claimants racing there exactly one wins. Once the log lost positions after
 *   `after` nobody can tell whether the batch was written: the message is not released
 *   (at most once rather than twice) and the claimant reports it.
 * - between 2 and 3: as above; the batch, while held, refuses the later insert.
 * - between 3 and 4: a settled claim: later claimants stop at it and remove the copy.
 * `prune` removes the copies still left of the claims it forgets, before forgetting them.
 */
export class ReleaseClaims {
  private constructor(private readonly claims: Collection<ClaimRecord>) {}

  static open(db: Db): ReleaseClaims {
    return new ReleaseClaims(collection<ClaimRecord>(db, 'release_claims', 'position'));
  }

  /** Claims message `id` (step 1), or answers the claim some node made before. */
  async take(id: string, after: number, expires: number): Promise<Taken> {
    try {
      await this.claims.insertOne({ _id: id, after, expires });
      return { by: 'us' };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const prior = await this.claims.findOne({ _id: id });
    // Gone between the two calls: pruned, so long settled.
    if (!prior) return { by: 'other', settled: true, after };
    return { by: 'other', settled: prior.pos !== undefined, after: prior.after };
  }

  /** Records the claiming batch's position (step 3). */
  async settle(id: string, pos: number): Promise<void> {
    await this.claims.updateOne({ _id: id }, { $set: { pos } });
  }

  /**
   * Which of `ids` are claimed, pending or settled: one equality lookup each (see
   * log-lookups.ts), or past a few dozen one `$in`, which FerretDB answers by reading the
   * claims of every unexpired message (fewer round trips than that many lookups).
   */
  async among(ids: readonly string[]): Promise<Set<string>> {
    const projection = { _id: 1 } as const;
    const found = ids.length > lookUpAtMost
      ? await this.claims.find({ _id: { $in: [...ids] } }, { projection }).toArray()
      : await lookUp(ids, (id) => this.claims.findOne({ _id: id }, { projection }));
    return new Set(found.flatMap((c) => (c ? [c._id] : [])));
  }

  /** The claims of messages expired by `now`: `forget` them once their copies are gone. */
  async expired(now: number): Promise<string[]> {
    return (await this.claims.find({ expires: { $gt: 0, $lte: now } }, { projection: { _id: 1 } }).toArray()).map((c) => c._id);
  }

  async forget(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.claims.deleteMany({ _id: { $in: [...ids] } });
  }
}
