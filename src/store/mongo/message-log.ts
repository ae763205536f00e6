import { randomBytes } from 'node:crypto';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import { isDuplicateKey } from './duplicate-key.js';
import { ensureIndexes } from './indexes.js';
import { collection } from './concerns.js';

/**
 * What an event is to the log: `stored` and `released` events go live and are replayed,
 * `uncached` ones (`Cache: no`) go live only, `waiting` ones (scheduled, not yet due)
 * neither: the log records that they committed, `scheduled.ts` keeps them until released.
 * A `cancelled` one was waiting and replaced by a later entry of its own batch.
 */
export type EventKind = 'stored' | 'waiting' | 'cancelled' | 'released' | 'uncached';

export interface LogEvent {
  id: string;
  topic: string;
  time: number;
  /** 0 when the message never expires from the cache's point of view (never replayed, as in SQLite). */
  expires: number;
  /** The message JSON exactly as delivered. */
  json: string;
  kind: EventKind;
  /** The message's sequence id: a later event with it replaces a waiting message. */
  sid?: string;
  /** The message has an attachment, which `dropAttachments` may have removed since. */
  attachment?: true;
}

/**
 * One commit: a single insert, hence atomic. Its events take the positions `_id` to
 * `last` in order (a batch without events takes one position, so every batch has one).
 */
export interface LogBatch {
  _id: number;
  last: number;
  /**
   * The batch's identity beside its position: the writing process and its count of
   * inserts. After a failover rolls a batch back, another may take its position; a tail
   * that handed on the first tells them apart by this (absent in batches of older versions).
   */
  by?: string;
  /** Topics of the events replays read (stored, released, waiting); absent when none. */
  topics?: string[];
  /** Ids of its stored and waiting messages, for since=<id>. */
  ids?: string[];
  /** The message this batch releases or cancels: unique, so each is claimed once. */
  claim?: string;
  events: LogEvent[];
}

export type BatchDraft = Omit<LogBatch, '_id' | 'last' | 'by'>;

const collectionName = 'messages';

/**
 * The message log: a capped collection holding one document per commit, in position order.
 *
 * Positions are totally ordered across writers by the chain of `_id`s, not by a counter
 * document (FerretDB 1.24 does not apply $inc or findOneAndUpdate atomically) nor by the
 * server's insertion order alone. A writer inserts its batch at `_id` = the highest `last`
 * it knows + 1; `_id` is unique, so if another writer already took that position the
 * insert fails with a duplicate key, the writer reads the highest batch and tries again.
 * By induction the batches form one gapless chain: an insert at `last + 1` of a batch
 * that has a successor collides with it, so only an insert after the newest batch
 * succeeds. It also means a batch is inserted only after its predecessor committed, so
 * insertion order (the capped collection's natural order, which tailable cursors follow)
 * is position order, and a tailer that meets `_id !== previous.last + 1` knows it missed
 * something (a batch it skipped, or one the capped collection dropped).
 *
 * Claims (release exactly once, release racing a delete) are the same single insert: a
 * sparse unique index on the scalar `claim`. FerretDB 1.24 does not enforce a unique index
 * across the elements of arrays (measured: a second document holding an element of the
 * first's array was accepted), so message ids are kept unique by `message-ids.ts` instead.
 */
export class MessageLog {
  /** The highest `last` this process has seen: where its next insert tries first. */
  private known = 0;
  /** Set by a write error that was not a duplicate key: the chain head is read before the next insert. */
  private stale = false;
  private readonly writer = randomBytes(6).toString('base64url');
  private inserts = 0;

  private constructor(
    private readonly db: Db,
    readonly batches: Collection<LogBatch>,
  ) {}

  /** Opens (creating if missing) the log, capped at `capBytes`, and makes sure it holds a batch. */
  static async open(db: Db, capBytes: number): Promise<MessageLog> {
    const exists = (await db.listCollections({ name: collectionName }, { nameOnly: true }).toArray()).length > 0;
    if (!exists) {
      await db.createCollection(collectionName, { capped: true, size: capBytes }).catch((err: unknown) => {
        if (!(err instanceof MongoServerError && err.code === namespaceExists)) throw err;
      });
    }
    const batches = collection<LogBatch>(db, collectionName, 'position');
    await ensureIndexes(batches, [
      { key: { topics: 1, _id: 1 }, name: 'topics' },
      { key: { ids: 1 }, name: 'ids' },
      { key: { claim: 1 }, name: 'claim', unique: true, sparse: true },
    ]);
    const log = new MessageLog(db, batches);
    // A tailable cursor needs a position that exists to start from (one that matches
    // nothing is closed at once), so an empty log gets an empty first batch.
    if (!(await log.newest())) await log.append({ events: [] });
    return log;
  }

  /** The highest position this process has seen (its inserts, what its tail read): at most the chain head. */
  get head(): number {
    return this.known;
  }

  /** Called with every batch this process reads, so its next insert starts from there. */
  seen(last: number): void {
    if (last > this.known) this.known = last;
  }

  /** Bytes of the batches held: the capped collection's data size, at most its cap. */
  async dataBytes(): Promise<number> {
    // With `estimate`, MongoDB answers a whole collection's dataSize from its record store
    // instead of scanning it; FerretDB computes it (its collStats sizes lag behind).
    const { size } = await this.db.command({ dataSize: `${this.db.databaseName}.${collectionName}`, estimate: true });
    return typeof size === 'number' ? size : 0;
  }

  async newest(): Promise<LogBatch | undefined> {
    const [top] = await this.batches.find().sort({ _id: -1 }).limit(1).toArray();
    if (top) this.seen(top.last);
    return top;
  }

  /**
   * Takes the chain head as it is now, even below what this process knew: after a write
   * error other than a duplicate key (a write concern not satisfied, a lost primary) a
   * failover may have rolled back batches this process counted on, and an insert after
   * them would leave a gap, or collide forever.
   */
  private async reload(): Promise<void> {
    const [top] = await this.batches.find().sort({ _id: -1 }).limit(1).toArray();
    this.known = top?.last ?? 0;
    this.stale = false;
  }

  /** Inserts `draft` as the next batch; answers it with its positions. */
  async append(draft: Omit<BatchDraft, 'claim'>): Promise<LogBatch> {
    for (;;) {
      const batch = await this.next(draft);
      if (await this.insert(batch)) return batch;
    }
  }

  /**
   * Inserts `draft` as the next batch claiming message `id`; undefined when the claim was
   * already taken (released or cancelled by any node, this one included).
   */
  async claim(id: string, draft: Omit<BatchDraft, 'claim'>): Promise<LogBatch | undefined> {
    for (;;) {
      const batch = await this.next({ ...draft, claim: id });
      if (await this.insert(batch)) return batch;
      // FerretDB does not say which index refused the insert: the claim is asked for.
      if (await this.batches.findOne({ claim: id }, { projection: { _id: 1 } })) return undefined;
    }
  }

  private async next(draft: BatchDraft): Promise<LogBatch> {
    if (this.stale) await this.reload();
    const first = this.known + 1;
    return { _id: first, last: first + Math.max(1, draft.events.length) - 1, by: `${this.writer}.${++this.inserts}`, ...draft };
  }

  /** False when the batch's position (or claim) was taken; the next try starts after the newest batch. */
  private async insert(batch: LogBatch): Promise<boolean> {
    try {
      await this.batches.insertOne(batch);
      this.seen(batch.last);
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) {
        this.stale = true;
        await this.reload().catch(() => undefined);
        throw err;
      }
      await this.newest();
      return false;
    }
  }
}

const namespaceExists = 48;
