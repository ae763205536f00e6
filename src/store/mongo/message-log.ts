import { randomBytes } from 'node:crypto';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import { isDuplicateKey } from './duplicate-key.js';
import { ensureIndexes } from './indexes.js';
import { collection } from './concerns.js';
import { fitCapSize } from './log-capacity.js';
import { HeldBatches } from './held-batches.js';
import { HeadsBoard, LogHeads, type Head } from './log-heads.js';
import type { PeerPresence } from '../peer-store.js';

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
  /**
   * The identity of the batch before it as its writer knew it: a tail that handed on a
   * different one there learns that a failover rewrote the chain behind it (see LogTail).
   */
  after?: string;
  /** Topics of the events replays read (stored, released, waiting); absent when none. */
  topics?: string[];
  /** Ids of its stored and waiting messages, for since=<id>. */
  ids?: string[];
  /** The message this batch releases or cancels: unique, so each is claimed once. */
  claim?: string;
  events: LogEvent[];
}

/** What opening and writing the log report besides failures. */
export interface LogReport {
  /** The log was resized to the configured cap. */
  warn?(details: object, message: string): void;
  /** An insert found its position taken by another writer and tries after it. */
  retried?(): void;
}

export type BatchDraft = Omit<LogBatch, '_id' | 'last' | 'by' | 'after'>;

/** Where a log is among a database's logs (log-shards.ts). */
export interface LogPlace {
  /** Its index: log 0 is the collection `messages` (the one log of older versions), log k `messages_k`. */
  shard: number;
  /** How many logs the database has. */
  count: number;
  /** The heads of every log, read once for all of this process's logs. */
  board: HeadsBoard;
  /** Whether other nodes announce their batches to this one (cluster/), shared by a process's logs. */
  peers?: PeerPresence;
}

/**
 * How long a read waits for a peer to announce a batch before looking it up in the log: an
 * announcement arrives within a millisecond or two of the commit, a lookup on FerretDB costs
 * the database a scan of the log's table. A batch no linked peer wrote (a node without the
 * cluster secret, an import) is looked up after this.
 */
export const peerWaitMs = 25;

/** The collection of log `shard`. */
export const logCollection = (shard: number): string => (shard === 0 ? 'messages' : `messages_${shard}`);

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
 * insertion order (the capped collection's natural order) is position order, and the
 * batch after one is always found at its `last + 1`: a tail reads the chain by equality
 * lookups of `_id` (message-log-tail.ts).
 *
 * Claims (release exactly once, release racing a delete) are the same single insert: a
 * sparse unique index on the scalar `claim`, which decides while the log holds the
 * claiming batch (release-claims.ts keeps each claim beyond that). FerretDB 1.24 does not enforce a unique index
 * across the elements of arrays (measured: a second document holding an element of the
 * first's array was accepted); message ids are random, and not checked (see MessageCache).
 */
export class MessageLog {
  /** The newest batch this process has seen (its position and identity): where its next insert tries first. */
  private known: Pick<LogBatch, 'last' | 'by'> = { last: 0 };
  /** Set by a write error that was not a duplicate key: the chain head is read before the next insert. */
  private stale = false;
  private inserts = 0;
  private readonly appended = new Set<(batch: LogBatch) => void>();
  private readonly offered = new Set<() => void>();
  /**
   * The writer's identity (`by`) of the newest batches learnt, by position: an insert that
   * finds its position taken by a batch already learnt (announced by a peer, read by the
   * tail) knows at once that another's took it, without the batch itself, which the tail
   * may have taken from `held` meanwhile.
   */
  private readonly starts = new Map<number, string | undefined>();
  /** Batches its tail has yet to read that this process already holds (see HeldBatches). */
  private readonly held = new HeldBatches(heldMax, heldMaxBytes);
  /** The last position the tail read (see `seen`). */
  private tailAt = 0;

  private constructor(
    private readonly db: Db,
    private readonly collectionName: string,
    readonly batches: Collection<LogBatch>,
    private readonly heads: LogHeads,
    private readonly writer: string,
    private readonly retried: () => void,
    private readonly peers: PeerPresence,
  ) {}

  /**
   * Opens (creating if missing) the log, capped at `capBytes`, and makes sure it holds a
   * batch. An existing log capped at another size is resized (`warn` says so), or, where
   * the server cannot, the opening fails naming both sizes (see fitCapSize).
   */
  static async open(db: Db, capBytes: number, report: LogReport = {}, place?: LogPlace): Promise<MessageLog> {
    const { warn = () => undefined, retried = () => undefined } = report;
    const { shard, count, board, peers = { linked: 0, all: false } } = place ?? { shard: 0, count: 1, board: await HeadsBoard.open(db) };
    const collectionName = logCollection(shard);
    const [existing] = await db.listCollections({ name: collectionName }).toArray();
    const size: unknown = existing && 'options' in existing ? existing.options?.size : undefined;
    if (!existing) {
      await db.createCollection(collectionName, { capped: true, size: capBytes }).catch((err: unknown) => {
        if (!(err instanceof MongoServerError && err.code === namespaceExists)) throw err;
      });
    } else if (typeof size === 'number') {
      await fitCapSize(db, collectionName, size, capBytes, (from, to) => warn({ from, to }, `message log ${collectionName}: resized from ${from} to ${to} bytes (cache-size-limit changed)`), count);
    }
    const batches = collection<LogBatch>(db, collectionName, 'position');
    await ensureIndexes(batches, [
      { key: { topics: 1, _id: 1 }, name: 'topics' },
      { key: { ids: 1 }, name: 'ids' },
      { key: { claim: 1 }, name: 'claim', unique: true, sparse: true },
    ]);
    const writer = randomBytes(6).toString('base64url');
    const log = new MessageLog(db, collectionName, batches, new LogHeads(board, writer, shard, peers), writer, retried, peers);
    // A tail needs a batch to follow from, so an empty log gets an empty first batch.
    if (!(await log.oldest())) await log.append({ events: [] });
    return log;
  }

  /** The highest position this process has seen (its inserts, what its tail read): at most the chain head. */
  get head(): number {
    return this.known.last;
  }

  /** Called with every batch the tail reads: this process's next insert starts from there, and what it held for the tail up to it goes. */
  seen(batch: Head): void {
    this.learn(batch);
    if (batch.last <= this.tailAt) return;
    this.tailAt = batch.last;
    this.held.dropThrough(this.tailAt);
  }

  /**
   * A batch a peer committed and announced (cluster/): held for the tail, which takes it
   * instead of looking it up, and the next insert goes after it. Peers announce only
   * batches written at majority, as the tail reads them.
   */
  offer(batch: LogBatch): void {
    if (batch.last <= this.tailAt) return;
    this.learn(batch);
    this.held.put(batch);
    if (batch._id === this.tailAt + 1) for (const listener of this.offered) listener();
  }

  /** Where the chain goes on, as far as this process knows, and who wrote the batch at `_id`. */
  private learn(batch: Head): void {
    if (batch.last > this.known.last) this.known = batch;
    this.starts.set(batch._id, batch.by);
    if (this.starts.size > startsKept) this.starts.delete(this.starts.keys().next().value as number);
  }

  /** Calls `listener` with each batch this process appends; answers the call that stops it. */
  onAppend(listener: (batch: LogBatch) => void): () => void {
    this.appended.add(listener);
    return () => this.appended.delete(listener);
  }

  /** Calls `listener` when a peer announces the batch the tail reads next; answers the call that stops it. */
  onOffer(listener: () => void): () => void {
    this.offered.add(listener);
    return () => this.offered.delete(listener);
  }

  /** Bytes of the batches held: the capped collection's data size, at most its cap. */
  async dataBytes(): Promise<number> {
    // With `estimate`, MongoDB answers a whole collection's dataSize from its record store
    // instead of scanning it; FerretDB computes it (its collStats sizes lag behind).
    const { size } = await this.db.command({ dataSize: `${this.db.databaseName}.${this.collectionName}`, estimate: true });
    return typeof size === 'number' ? size : 0;
  }

  /**
   * The batch that starts at `position`: an equality lookup on `_id`, which FerretDB hands
   * to PostgreSQL's index (it evaluates ranges and sorts on fields in Go, after reading the
   * whole collection: 1.24's query pushdown takes equalities only).
   */
  at(position: number): Promise<LogBatch | null> {
    return this.batches.findOne({ _id: position });
  }

  /**
   * The batch that starts at `position` for the tail, which reads each position once: the
   * one this process holds (see `held`) or a peer announces within `peerWaitMs`, else a
   * lookup (`at`). All were read or written at majority; a rewrite after a failover is
   * caught by the tail's identity checks, which read with `at`.
   */
  async take(position: number): Promise<LogBatch | null> {
    const batch = this.held.get(position) ?? (await this.announced(position));
    if (!batch) return this.at(position);
    this.held.take(position);
    return batch;
  }

  holds(position: number): boolean {
    return this.held.get(position) !== undefined;
  }

  allAnnounced(): boolean {
    return this.peers.all;
  }

  /** The batch at `position` if a linked peer announces it within `peerWaitMs`. */
  private announced(position: number): Promise<LogBatch | undefined> {
    return this.peers.linked > 0 ? this.held.waitFor(position, peerWaitMs) : Promise.resolve(undefined);
  }

  /**
   * The newest batch: from the highest head a writer recorded (log-heads.ts), read on by
   * position to the end of the chain. Without a head to start from (a log written by an
   * older version; a head the capped log already dropped) the collection is read backwards
   * in natural order, which is position order (see above): one read on MongoDB, the whole
   * collection on FerretDB.
   */
  async newest(): Promise<LogBatch | undefined> {
    const hint = await this.heads.highest();
    let top = hint && (await this.at(hint._id));
    if (!top) [top] = await this.batches.find().sort({ $natural: -1 }).limit(1).toArray();
    for (let next = top && (await this.at(top.last + 1)); next; next = await this.at(next.last + 1)) top = next;
    if (top) this.learn(top);
    return top ?? undefined;
  }

  /** The highest head a writer recorded: where the log ends, give or take the writes in flight (see LogHeads). */
  newestHint(): Promise<Head | undefined> {
    return this.heads.highest();
  }

  /** The oldest batch: without a sort, both servers read the capped collection from its start. */
  async oldest(): Promise<LogBatch | undefined> {
    const [batch] = await this.batches.find().limit(1).toArray();
    return batch;
  }

  /**
   * Takes the chain head as it is now, even below what this process knew: after a write
   * error other than a duplicate key (a write concern not satisfied, a lost primary) a
   * failover may have rolled back batches this process counted on, and an insert after
   * them would leave a gap, or collide forever.
   */
  private async reload(): Promise<void> {
    this.known = { last: 0 };
    this.starts.clear();
    await this.newest();
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

  /**
   * Inserts `drafts` as the next batches, in order, in one round trip (an ordered
   * insertMany) unless another writer takes a position among them: then those before it
   * stand and the rest are appended one by one after it. `committed` hears of each batch
   * as it commits, so a caller knows which did when a later one fails.
   */
  async appendAll(drafts: readonly Omit<BatchDraft, 'claim'>[], committed: (batch: LogBatch) => void): Promise<LogBatch[]> {
    const done: LogBatch[] = [];
    const commit = (batch: LogBatch): void => {
      done.push(batch);
      committed(batch);
    };
    if (drafts.length > 1) {
      const batches = await this.chain(drafts);
      try {
        await this.batches.insertMany(batches, { ordered: true });
        for (const batch of batches) commit(this.inserted(batch));
        return done;
      } catch (err) {
        if (!isDuplicateKey(err)) {
          this.stale = true;
          throw err;
        }
        // Those before the refused one stand, and any the driver's retry found written.
        for (const batch of batches) {
          if ((await this.at(batch._id))?.by !== batch.by) break;
          commit(this.inserted(batch));
        }
      }
    }
    for (const draft of drafts.slice(done.length)) commit(await this.append(draft));
    return done;
  }

  private async next(draft: BatchDraft): Promise<LogBatch> {
    return (await this.chain([draft]))[0] as LogBatch;
  }

  /** `drafts` as the batches that would follow the newest this process knows, each after the one before. */
  private async chain(drafts: readonly BatchDraft[]): Promise<LogBatch[]> {
    if (this.stale) await this.reload();
    let { last, by } = this.known;
    return drafts.map((draft) => {
      const batch: LogBatch = {
        _id: last + 1,
        last: last + Math.max(1, draft.events.length),
        by: `${this.writer}.${++this.inserts}`,
        ...(by !== undefined && { after: by }),
        ...draft,
      };
      ({ last, by } = batch);
      return batch;
    });
  }

  /** False when the batch's position (or claim) was taken; the next try starts after the newest batch. */
  private async insert(batch: LogBatch): Promise<boolean> {
    try {
      await this.batches.insertOne(batch);
    } catch (err) {
      if (!isDuplicateKey(err)) {
        // The next insert reloads the head first; not now, which would hold this failure's
        // answer while a database that did not answer the insert may not answer the read.
        this.stale = true;
        throw err;
      }
      // Taken: the next try goes after the batch that took it, or after the highest head
      // written, if further (a head names a batch that committed, so never past the end):
      // with several nodes appending, the batch that took it is rarely the last. A peer's
      // announcement spares both reads (its later batches are learnt as they come).
      const learnt = this.starts.has(batch._id) ? { by: this.starts.get(batch._id) } : undefined;
      const offered = learnt ?? this.held.get(batch._id) ?? (await this.announced(batch._id));
      const [taken, hint] = offered ? [offered, undefined] : await Promise.all([this.at(batch._id), this.heads.highest()]);
      // Unless it is this very batch: the driver retried an insert whose answer a cut
      // connection lost, and FerretDB, which keeps no record of retried writes, refused
      // the repeat. Trying it again further on would log the batch twice.
      if (taken?.by !== batch.by) {
        this.retried();
        if (taken && 'events' in taken) {
          this.learn(taken);
          if (taken._id > this.tailAt) this.held.put(taken);
        }
        if (hint) this.learn(hint);
        return false;
      }
    }
    this.inserted(batch);
    return true;
  }

  /** Takes note of `batch`, which this process inserted: the chain goes on after it, the tail and listeners get it. */
  private inserted(batch: LogBatch): LogBatch {
    this.learn(batch);
    if (batch._id > this.tailAt) this.held.put(batch);
    this.heads.note(batch);
    for (const listener of this.appended) listener(batch);
    return batch;
  }
}

const namespaceExists = 48;
/** Identities of learnt batches kept (see `starts`): far more than the commits in flight. */
const startsKept = 4096;
/**
 * Batches held for the tail at most, and their bytes of message JSON: it usually takes each
 * within milliseconds; with peers announcing theirs, a burst of every node's batches waits.
 */
const heldMax = 1024;
const heldMaxBytes = 16 * 1024 * 1024;
