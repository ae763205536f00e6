import { HandedBatches } from './handed-batches.js';
import type { LostRange } from '../live-feed.js';
import type { Head } from './log-heads.js';
import type { LogBatch } from './message-log.js';


/** What a tail reads of the log (MessageLog; a test double in the identity tests). */
export interface TailSource {
  /** The batch starting at `position`, if any, as the database has it now. */
  at(position: number): Promise<LogBatch | null>;
  /** The same for the next position to hand on, which the source may already hold (MessageLog.take). */
  take(position: number): Promise<LogBatch | null>;
  oldest(): Promise<LogBatch | undefined>;
  /** Where the log ends, as its writers last said (it may lag a little). */
  newestHint(): Promise<Head | undefined>;
  /** Told of every batch the tail reads, so that this process's next insert starts after it. */
  seen(batch: Head): void;
  /** Calls `listener` after each batch this process appends; answers the call that stops it. */
  onAppend(listener: () => void): () => void;
  /** Calls `listener` when a peer announces the batch to read next (MessageLog.offer); answers the call that stops it. */
  onOffer?(listener: () => void): () => void;
  /** Whether the source already holds the batch at `position` (this process wrote it, or a peer announced it). */
  holds?(position: number): boolean;
  /**
   * Whether every other writer announces its batches now (`onOffer`): then nothing comes
   * that does not wake the tail, and a quiet tail looks on its own only every `checkMs`.
   */
  allAnnounced?(): boolean;
}

/** What a step found: a batch read from the log, one this process held, or nothing. */
type Found = 'read' | 'held' | 'none';

export interface TailHandlers {
  /** Each batch after the start, once, in position order. */
  batch(batch: LogBatch): void;
  lost(range: LostRange): void;
  /** A read failed (network, server); the tail goes on from the last batch handed on. */
  error(err: unknown): void;
  /** Positions between the last batch handed on and the log's newest, every `checkMs`. */
  lag?(positions: number): void;
}

export interface TailOptions {
  /** Pause after a read found nothing new; it doubles while nothing comes, up to `idlePollMs`. */
  pollMs: number;
  idlePollMs: number;
  /** How often the tail compares its position with the log's ends (lag, a range it can no longer read). */
  checkMs: number;
  /** Pause after a failed read. */
  retryMs: number;
}

/** Identities kept for the walk back after a rewritten chain (see HandedBatches). */
const handedKept = 1000;

/**
 * Follows the log from a batch that exists, handing on every later batch in position
 * order, without gap or duplicate, by equality lookups: the batch after the last one
 * handed on starts at its `last + 1` (the chain of message-log.ts). No cursor: FerretDB
 * 1.24 answers each getMore of a tailable cursor by re-running its query, and a range on
 * `_id` is evaluated after reading the whole collection (its pushdown takes equalities
 * only), so a cursor cost every poll the whole log; a lookup costs one index probe on
 * either server, and a reopened tail starts where it was without a scan.
 *
 * A lookup that finds nothing waits `pollMs`, doubling up to `idlePollMs` while the log is
 * quiet, and asks the writers' heads (log-heads.ts) whether there is more before it looks
 * again (every `checkMs` it looks without asking); a batch this process appends, or a peer
 * announces, wakes it at once. While every other writer announces (a linked cluster), it
 * waits for that alone, up to `checkMs`: an idle node then reads the heads about once a
 * second, not fifty times (an import, or a node not linked yet, reaches it at the next
 * check, within `checkMs`). Every `checkMs` it reads where the
 * writers say the log ends: if there are positions after its own yet none starts after it, either the
 * capped log dropped them before this node read them, or a failover rewrote the chain
 * behind the tail (a batch's `after` names its predecessor, and a tail that handed on a
 * different one also sees that at once). Both are reported through `lost`, never skipped.
 */
export class LogTail {
  private stopped = false;
  private last: number;
  private lastBy: string | undefined;
  private readonly handed = new HandedBatches(handedKept);
  private checkedAt = performance.now();
  /**
   * Where the writers' heads last said the log ends. Past it the tail asks them again
   * before it looks (a head is a read of a few small documents, a lookup on FerretDB a scan
   * of the log's table): after each batch handed on, not only after a lookup found nothing.
   */
  private knownEnd = 0;
  /** This process appended, or a peer announced the next batch, since the last lookup: look without asking. */
  private appended = false;
  private woken = false;
  private wake: (() => void) | undefined;
  private readonly unlisten: (() => void)[];
  /** Resolves when the tail stopped. */
  readonly done: Promise<void>;

  constructor(
    private readonly source: TailSource,
    start: LogBatch,
    private readonly handlers: TailHandlers,
    private readonly options: TailOptions,
  ) {
    this.last = start.last;
    this.lastBy = start.by;
    this.handed.add(start);
    // The source learns where the tail is, so that it knows which announcement is the next one (MessageLog.offer).
    source.seen(start);
    this.unlisten = [source.onAppend(() => this.poke()), source.onOffer?.(() => this.poke()) ?? (() => undefined)];
    this.done = this.run();
  }

  stop(): void {
    this.stopped = true;
    for (const stop of this.unlisten) stop();
    this.poke();
  }

  private poke(): void {
    this.appended = true;
    this.woken = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    let wait = this.options.pollMs;
    while (!this.stopped) {
      this.woken = false;
      try {
        const found = await this.step();
        if (found === 'read') {
          wait = this.options.pollMs;
          continue;
        }
        // A batch held came without a read: the next likely comes so too, and wakes the tail
        // when it does; asking the heads at once would cost a read per batch for nothing.
        if (found === 'held' && this.source.holds?.(this.last + 1)) continue;
        await this.pause(this.source.allAnnounced?.() === true ? this.options.checkMs : wait);
        wait = Math.min(wait * 2, this.options.idlePollMs);
      } catch (err) {
        if (this.stopped) return;
        this.handlers.error(err);
        await this.pause(this.options.retryMs);
      }
    }
  }

  /** Reads the batch after the last one handed on, if there is one. */
  private async step(): Promise<Found> {
    // A check looks without asking the heads: a writer that died between its insert and
    // its head write, or whose head write failed, leaves a batch no head names. So does a
    // step whose next batch is held already: announced before the one before it was handed
    // on, it woke nothing, and the heads may not name it yet.
    const checking = performance.now() - this.checkedAt >= this.options.checkMs;
    if (checking) await this.check();
    else if (!this.appended && this.source.holds?.(this.last + 1) !== true && this.knownEnd <= this.last && (await this.endHint()) <= this.last) return 'none';
    this.appended = false;
    const held = this.source.holds?.(this.last + 1) === true;
    const next = await this.source.take(this.last + 1);
    // Nothing where a head said there was more: ask them again first next time.
    if (!next) this.knownEnd = 0;
    if (!next || this.stopped) return 'none';
    if (next.after !== undefined && this.lastBy !== undefined && next.after !== this.lastBy) await this.rewritten(this.last);
    this.hand(next);
    return held ? 'held' : 'read';
  }

  /** Where the writers' heads say the log ends now (0 when none wrote). */
  private async endHint(): Promise<number> {
    this.knownEnd = (await this.source.newestHint())?.last ?? 0;
    return this.knownEnd;
  }

  private async check(): Promise<void> {
    this.checkedAt = performance.now();
    const newest = await this.source.newestHint();
    if (!newest) return;
    this.knownEnd = newest.last;
    this.handlers.lag?.(Math.max(0, newest.last - this.last));
    if (newest.last <= this.last || (await this.source.at(this.last + 1))) return;
    const oldest = await this.source.oldest();
    if (oldest && oldest._id > this.last + 1) {
      this.handlers.lost({ from: this.last + 1, to: oldest._id - 1 });
      this.hand(oldest);
      return;
    }
    // A batch spans the position after this tail's: it is not the chain the tail followed.
    await this.rewritten(newest.last);
    this.moveTo(newest);
  }

  /**
   * A failover rolled back batches this tail handed on and others took their positions (a
   * tail reads at majority, so only a server that broke that promise gets here): reports
   * as lost the positions after the newest batch still in the log as handed on, to `through`.
   */
  private async rewritten(through: number): Promise<void> {
    let from = this.last + 1;
    for (const batch of this.handed.newestFirst()) {
      if ((await this.source.at(batch._id))?.by === batch.by) break;
      from = batch._id;
    }
    // Nothing handed on differs when a writer named a predecessor it knew from before a failover.
    if (from <= through) this.handlers.lost({ from, to: through });
  }

  private hand(batch: LogBatch): void {
    this.moveTo(batch);
    this.handlers.batch(batch);
  }

  private moveTo(batch: Head): void {
    this.handed.add(batch);
    this.last = batch.last;
    this.lastBy = batch.by;
    this.source.seen(batch);
  }

  /**
   * Waits until the next multiple of `ms` on this process's clock, or less if this process
   * appends meanwhile (or appended since the last read began). On that grid the idle tails
   * of a process's logs wake together and share one read of the heads (HeadsBoard).
   */
  private pause(ms: number): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), ms - (performance.now() % ms));
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
