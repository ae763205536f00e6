import type { Collection, Db } from 'mongodb';
import type { PeerPresence } from '../peer-store.js';
import { collection } from './concerns.js';
import type { LogBatch } from './message-log.js';
import { WriteSpacing } from './write-spacing.js';

export type Head = Pick<LogBatch, '_id' | 'last' | 'by'>;

interface Stored {
  /** The writing process (each log of a process writes as one of its own). */
  _id: string;
  /** The log written (log-shards.ts); absent in heads of older versions, which had one log. */
  shard?: number;
  pos: number;
  last: number;
  by?: string;
  /** When it was written (ms since the epoch): a process gone for a day is forgotten. */
  t: number;
}

const forgetAfterMs = 24 * 3600_000;
/** Pause before a failed head write is tried again. */
const retryMs = 100;
/** While every peer announces to this process, its head is written at most this often (see LogHeads). */
const linkedSpacingMs = 250;

/**
 * Where the log's newest batch is, as hinted by every writing process: the newest batch
 * each wrote, one small document per process (only it writes it). FerretDB 1.24 cannot
 * answer "the newest batch" of the log itself without reading the whole collection (a
 * sort, even $natural, is done in Go after every document is decoded: 8.6 s for 400 MB,
 * measured), so a reader takes the highest head here and reads on from it by position,
 * a lookup per batch written since (MessageLog.newest). A tail that has read everything
 * asks here whether there is more before it looks (LogTail): a lookup by `_id` is a scan
 * of the whole table in FerretDB's PostgreSQL (its `@>` does not use the btree index),
 * this a read of a few small documents.
 *
 * A process writes its head after each batch it appends, one write at a time: a batch
 * appended while one is being written is written next, with what came meanwhile. A head
 * is a hint, never past the end: a process that dies between its insert and its head
 * write leaves the head behind, and readers walk on from it by position.
 *
 * While every other node is linked to this process (PeerPresence.all), their tails learn
 * its batches from its announcements and look at the heads only once a second (LogTail),
 * so it writes its head at most every `linkedSpacingMs`: a commit is then one write to the
 * database, not two. What that costs: a reader walking from the head (a node starting, a
 * writer after a failed insert) reads on a few batches more.
 */
export class LogHeads {
  /** The newest batch noted and not yet written. */
  private pending: LogBatch | undefined;
  private writing = false;
  private readonly spacing = new WriteSpacing(linkedSpacingMs);

  /** The heads of log `shard`, as `writer` writes them, read through a process's `board`. */
  constructor(
    private readonly board: HeadsBoard,
    private readonly writer: string,
    private readonly shard: number,
    private readonly peers: PeerPresence = { linked: 0, all: false },
  ) {}

  /** Records `batch` as this process's newest: now, or after the write in flight. */
  note(batch: LogBatch): void {
    this.pending = batch;
    this.flush();
  }

  private flush(): void {
    if (!this.pending || this.writing || this.spacing.waiting) return;
    if (this.peers.all && this.spacing.wait() > 0) return this.spacing.putOff(() => this.flush());
    this.spacing.began();
    const batch = this.pending;
    this.pending = undefined;
    this.writing = true;
    const head: Stored = { _id: this.writer, ...(this.shard > 0 && { shard: this.shard }), pos: batch._id, last: batch.last, ...(batch.by !== undefined && { by: batch.by }), t: Date.now() };
    void this.board.heads.replaceOne({ _id: this.writer }, head, { upsert: true }).then(
      () => this.written(),
      () => {
        // Tried again until it lands or a newer head replaces it: a tail that read
        // everything looks for more only when a head says so (or once per check, see
        // LogTail), so the last batch before a quiet spell would wait that long.
        this.pending ??= batch;
        setTimeout(() => this.written(), retryMs).unref();
      },
    );
  }

  private written(): void {
    this.writing = false;
    this.flush();
  }

  /** The highest head any process recorded of this log; undefined when none did. */
  async highest(): Promise<Head | undefined> {
    const all = (await this.board.read()).filter((h) => (h.shard ?? 0) === this.shard);
    const top = all.reduce<Stored | undefined>((best, h) => (best && best.last >= h.last ? best : h), undefined);
    return top && { _id: top.pos, last: top.last, ...(top.by !== undefined && { by: top.by }) };
  }
}

/**
 * The heads of every log of the database (one collection, a few small documents per
 * process), read once for all the logs of a process: a read asked for while one is in
 * flight joins it, so the tails of several logs, which wake at the same instants when idle
 * (LogTail), cost one read between them.
 */
export class HeadsBoard {
  private reading: Promise<Stored[]> | undefined;

  private constructor(readonly heads: Collection<Stored>) {}

  static async open(db: Db): Promise<HeadsBoard> {
    const heads = collection<Stored>(db, 'log_heads', 'position');
    await heads.deleteMany({ t: { $lt: Date.now() - forgetAfterMs } });
    return new HeadsBoard(heads);
  }

  read(): Promise<Stored[]> {
    this.reading ??= this.heads.find().toArray().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }
}
