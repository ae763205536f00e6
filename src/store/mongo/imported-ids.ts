import { MongoBulkWriteError, type Collection, type Db } from 'mongodb';
import { failedWrites, isDuplicateKey } from './duplicate-key.js';
import { collection } from './concerns.js';

interface HeldId {
  _id: string;
  /** The message's expiry: `prune` forgets the id after it. */
  expires: number;
}

/**
 * The ids of the messages imports added, one document each (`_id`'s unique index), so that
 * an import run again, or after an interrupt, skips what it added before without a lookup
 * in the log per message (a scan of the log's table on FerretDB: see log-lookups.ts).
 * Published messages are not recorded: their ids are random (see MessageCache). The
 * collection keeps the name of earlier versions, which recorded every id there: those
 * are pruned as they expire.
 */
export class ImportedIds {
  private constructor(private readonly held: Collection<HeldId>) {}

  static open(db: Db): ImportedIds {
    return new ImportedIds(collection<HeldId>(db, 'message_ids', 'position'));
  }

  /** Records the ids not yet recorded; answers those already recorded. */
  async recordAbsent(ids: readonly { id: string; expires: number }[]): Promise<Set<string>> {
    try {
      await this.held.insertMany(ids.map(({ id, expires }) => ({ _id: id, expires })), { ordered: false });
      return new Set();
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || !isDuplicateKey(err)) throw err;
      return new Set(failedWrites(err).map((e) => (ids[e.index] as { id: string }).id));
    }
  }

  /** Forgets the ids of messages expired by `now`. */
  async prune(now: number): Promise<void> {
    await this.held.deleteMany({ expires: { $lte: now } });
  }
}
