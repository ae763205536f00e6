import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import type Database from 'better-sqlite3';

/** How long no commit must come before the WAL is checkpointed. */
const idleMs = 10;
/** The share of `wal_autocheckpoint` at which an idle connection checkpoints. */
const share = 0.9;
/** The WAL-index header's 32-bit fields are in the machine's byte order. */
const readU32 = endianness() === 'LE' ? (b: Buffer, at: number) => b.readUInt32LE(at) : (b: Buffer, at: number) => b.readUInt32BE(at);

/**
 * SQLite's WAL checkpoints, taken while the event loop is idle when the load allows it.
 * SQLite checkpoints in the commit that takes the WAL to `wal_autocheckpoint` frames
 * (1,000), and with synchronous=NORMAL a checkpoint fsyncs the WAL and the database: that
 * commit, and every publish and delivery queued behind it, waited 4–10 ms here, once
 * every ~330 lone publishes (issue 39: the fan-out p99 outliers at a fixed rate).
 *
 * Here a commit (re)arms a timer; once no commit came for `idleMs` and nine tenths of that
 * threshold of frames wait, the checkpoint runs then, on the same connection, between
 * publishes instead of inside one. It copies everything, so the next commit starts the WAL
 * over and the inline one is never reached; what a commit still pays is the fsync of the
 * WAL's new header at that start (~0.3 ms), once a cycle, as before. So close to SQLite's
 * own threshold, a light load checkpoints about as often as before (each idle look sees a
 * commit's few frames; half of it made twice the fsyncs). A load with no idle moment
 * checkpoints inline, as SQLite does. (Checkpoints on a thread of their own were tried
 * twice: they compete with the event loop for its core, and under steady writes never
 * catch up; bench/README.md.) A threshold the startup queries set is kept; a database in
 * memory, not in WAL mode or with checkpoints off gets none.
 */
export class IdleCheckpoints {
  private timer: NodeJS.Timeout | undefined;
  private index: number | undefined;
  private readonly header = Buffer.alloc(100);

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly frames: number,
  ) {}

  static start(db: Database.Database, file: string): IdleCheckpoints | undefined {
    if (file === '' || db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
    const threshold = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    return threshold > 1 ? new IdleCheckpoints(db, file, Math.floor(threshold * share)) : undefined;
  }

  /** A transaction committed on the connection. */
  committed(): void {
    // One timer for the connection's life: refresh() re-arms it, fired or not.
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(this.check, idleMs).unref();
  }

  close(): void {
    clearTimeout(this.timer);
    if (this.index !== undefined) closeSync(this.index);
  }

  private readonly check = (): void => {
    if (this.waiting() < this.frames) return;
    try {
      // PASSIVE: a reader's old snapshot keeps what it needs in the WAL; nothing waits for it.
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // An I/O error, as SQLite ignores one in a commit's own checkpoint: that one still comes.
    }
  };

  /**
   * Frames in the WAL not yet copied into the database: from the WAL-index header (the
   * -shm file every connection maps, sqlite.org/walformat.html), mxFrame at byte 16 less
   * nBackfill at byte 96. One pread, where asking SQLite would take its locks; 0 while
   * there is no WAL-index.
   */
  private waiting(): number {
    try {
      this.index ??= openSync(`${this.file}-shm`, 'r');
    } catch {
      return 0;
    }
    const { header } = this;
    if (readSync(this.index, header, 0, header.length, 0) < header.length) return 0;
    return readU32(header, 16) - readU32(header, 96);
  }
}
