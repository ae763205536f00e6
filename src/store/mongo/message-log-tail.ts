import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from 'mongodb';
import { tailReads } from './concerns.js';
import { DeliveredBatches } from './delivered-batches.js';
import type { LogBatch, MessageLog } from './message-log.js';

/** Positions `from` to `to` that no reader of this node will see: the capped log dropped them first. */
export interface LostRange {
  from: number;
  to: number;
}

export interface TailHandlers {
  /** Each batch after the start, once, in position order. */
  batch(batch: LogBatch): void;
  lost(range: LostRange): void;
  /** A cursor failed (network, server); the tail goes on from the last batch read. */
  error(err: unknown): void;
}

export interface TailOptions {
  /** How long a getMore waits for new batches (awaitData). */
  awaitMs: number;
  /** Batches read before a cursor is reopened from the last one (see below). */
  reopenAfter: number;
  /** Pause before reopening after a failure, or after a cursor FerretDB closed at once. */
  retryMs: number;
}

/**
 * Follows the log with a tailable awaitData cursor from a batch that exists, handing on
 * every later batch in position order, without gap or duplicate, across lost cursors:
 * - A cursor starts at the last batch read (`_id >= it`) and drops it: a tailable cursor
 *   whose query matches nothing is closed at once (MongoDB and FerretDB), and FerretDB
 *   also closes one whose first batch is shorter than its batchSize, so the first batch
 *   is one document; getMores then take up to 1,000.
 * - A batch at or below the last one read is a repeat and skipped (FerretDB rewinds a
 *   cursor whose poll outlasted maxAwaitTimeMS), if it is the batch handed on there: a
 *   different one (its identity `by`) replaced a batch a failover rolled back, and its
 *   positions are reported through `lost`. A batch beyond `last + 1` means some were
 *   missed: they are read by position; those the capped log already dropped are reported
 *   through `lost`, never skipped silently.
 * - FerretDB answers each getMore by re-running the cursor's query and skipping what it
 *   returned, so a poll costs every batch since the cursor opened: it is reopened every
 *   `reopenAfter` batches.
 */
export class LogTail {
  private stopped = false;
  private readonly abort = new AbortController();
  private first: number;
  private last: number;
  private readonly delivered: DeliveredBatches;
  /** Resolves when the tail stopped. */
  readonly done: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly log: MessageLog,
    start: LogBatch,
    private readonly handlers: TailHandlers,
    private readonly options: TailOptions,
  ) {
    this.first = start._id;
    this.last = start.last;
    this.delivered = new DeliveredBatches(options.reopenAfter);
    this.delivered.add(start);
    this.done = this.run();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort(new Error('log tail stopped'));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!(await this.follow())) await delay(this.options.retryMs, undefined, { signal: this.abort.signal });
      } catch (err) {
        if (this.stopped) return;
        this.handlers.error(err);
        await delay(this.options.retryMs, undefined, { signal: this.abort.signal }).catch(() => undefined);
      }
    }
  }

  /** One cursor, until it closes or read `reopenAfter` batches; false if it found nothing to start from. */
  private async follow(): Promise<boolean> {
    const cursor = this.db
      .runCursorCommand(
        { find: this.log.batches.collectionName, filter: { _id: { $gte: this.first } }, tailable: true, awaitData: true, batchSize: 1, readConcern: tailReads.readConcern },
        { tailable: true, awaitData: true, readPreference: tailReads.readPreference },
      )
      .setBatchSize(1000)
      .setMaxTimeMS(this.options.awaitMs);
    const stop = (): void => void cursor.close().catch(() => undefined);
    this.abort.signal.addEventListener('abort', stop);
    let read = 0;
    try {
      for await (const doc of cursor) {
        if (this.stopped) break;
        await this.take(doc as LogBatch);
        if (++read >= this.options.reopenAfter) break;
      }
    } finally {
      this.abort.signal.removeEventListener('abort', stop);
      await cursor.close().catch(() => undefined);
    }
    return read > 0;
  }

  private async take(batch: LogBatch): Promise<void> {
    if (batch._id <= this.last) {
      if (!this.delivered.has(batch)) this.replaced(batch);
      return;
    }
    if (batch._id > this.last + 1) await this.fill(batch._id);
    if (!this.stopped) this.hand(batch);
  }

  /**
   * A batch at positions already handed on that is not the batch handed on there: that
   * one was rolled back and this one took its place (see DeliveredBatches). Its positions
   * are reported lost, never dropped as a repeat; the tail goes on after it.
   */
  private replaced(batch: LogBatch): void {
    this.handlers.lost({ from: batch._id, to: batch.last });
    this.delivered.add(batch);
    if (batch.last > this.last) {
      this.first = batch._id;
      this.last = batch.last;
      this.log.seen(batch.last);
    }
  }

  /** Reads the batches between the last one handed on and `next`, reporting those gone. */
  private async fill(next: number): Promise<void> {
    const missed = await this.log.batches.find({ _id: { $gt: this.last, $lt: next } }).sort({ _id: 1 }).toArray();
    for (const batch of missed) {
      if (this.stopped) return;
      if (batch._id > this.last + 1) this.handlers.lost({ from: this.last + 1, to: batch._id - 1 });
      this.hand(batch);
    }
    if (next > this.last + 1) this.handlers.lost({ from: this.last + 1, to: next - 1 });
  }

  private hand(batch: LogBatch): void {
    this.delivered.add(batch);
    this.first = batch._id;
    this.last = batch.last;
    this.log.seen(batch.last);
    this.handlers.batch(batch);
  }
}
