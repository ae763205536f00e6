import { LruMap } from '../model/lru-map.js';

/** Reads remembered, least recently used forgotten first (keys come from requests: see the SQLite read cache). */
const limit = 10_000;
/** Reads kept whole, apart from those (see the SQLite read cache's `wholeLimit`). */
const wholeLimit = 16;

/** How often each instance asks for the newest change in the background. */
export const pollEveryMs = 250;

/**
 * The store's `staleReadBoundMs`: issue 17 wants a password change or token revocation on
 * one node honoured by no other node a second later. Background polls every 250 ms keep
 * reads from ever waiting on a poll while round trips stay under 750 ms.
 */
export const staleReadBoundMs = 1000;

/**
 * The reads of every request (who a name or token is, what a user may do with a topic),
 * remembered as promises (a burst of one key costs one query) until the store changes:
 * this instance's own changes `clear` it, other instances' are seen by polling the
 * newest change number, which every change moves after its writes (the MongoDB store's
 * mongo/auth/changes.ts, the PostgreSQL store's postgres/auth/auth-db.ts).
 *
 * Why a read is never staler than the bound: a poll that started at `s` and found the
 * number it had seen proves that no change resolved before `s` is missing from what is
 * remembered (had one, its number would be newer, and the poll would have cleared the
 * memo). So a read at `r` uses the memo only while the newest such `s` is after
 * `r - staleReadBoundMs`, and otherwise waits for a poll itself. A read in flight when
 * the memo is cleared is dropped with it, so it cannot put an old answer back.
 */
export class PolledReadCache {
  private readonly memo = new LruMap<string, Promise<unknown>>(limit);
  private readonly kept = new LruMap<string, Promise<unknown>>(wholeLimit);
  /** The newest change number the last poll found. */
  private seen: number | undefined;
  /** When the newest poll that completed started, on `now`. */
  private verifiedAt = -Infinity;
  private polling: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  /**
   * `now` is the clock freshness is timed on (ms, monotonic: a wall clock set back must not
   * stretch the bound); tests pass their own, with polls in the background never due.
   */
  constructor(
    private readonly newest: () => Promise<number>,
    /** The store's error for a read the database did not answer (StoreUnavailableError, so 503), any other as it is. */
    private readonly readFailure: (err: unknown) => unknown,
    private readonly now: () => number = () => performance.now(),
    everyMs = pollEveryMs,
  ) {
    // A failed background poll is left for the next read to meet: it polls itself once the
    // bound has passed, and fails, rather than answer from a memo it cannot vouch for.
    this.timer = setInterval(() => void this.poll().catch(() => undefined), everyMs).unref();
  }

  /** `whole`: kept apart from the bounded memo of request keys (see `kept`). */
  async get<T>(key: string, read: () => Promise<T>, whole = false): Promise<T> {
    const started = this.now();
    while (this.verifiedAt <= started - staleReadBoundMs) await this.poll().catch((err: unknown) => Promise.reject(this.readFailure(err)));
    const table = whole ? this.kept : this.memo;
    const hit = table.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    // A database out of reach is answered 503, not 500: the request may be tried again.
    const reading = read().catch((err: unknown) => Promise.reject(this.readFailure(err)));
    table.set(key, reading);
    // A failure is not remembered: the next read asks again.
    reading.catch(() => table.peek(key) === reading && table.delete(key));
    return reading;
  }

  clear(): void {
    this.memo.clear();
    this.kept.clear();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private poll(): Promise<void> {
    this.polling ??= (async () => {
      const started = this.now();
      try {
        const newest = await this.newest();
        if (newest !== this.seen) this.clear();
        this.seen = newest;
        this.verifiedAt = Math.max(this.verifiedAt, started);
      } finally {
        this.polling = undefined;
      }
    })();
    return this.polling;
  }
}
