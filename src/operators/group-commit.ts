import { from, Observable, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { atTurnEnd } from '../streams/turn-end.js';

export interface GroupCommitOptions {
  /** Commit arrays of at most this many values; 0 means no limit. */
  maxSize: number;
  /**
   * How long values queued together may wait for more to join them, from the first one's
   * arrival (cache-batch-timeout); 0: until the current event-loop turn ends. A value queued
   * alone never waits longer than its turn.
   */
  maxWaitMs: number;
  /**
   * After a commit of several values that took `lingerFromMs` or more, how long at most the
   * next may wait for as many arrivals as the last carried (half the last commit's time, up
   * to this); 0: never. See below.
   */
  lingerMaxMs?: number;
  /** Where the wait runs; tests pass a TestScheduler. Default: atTurnEnd / setTimeout. */
  scheduler?: SchedulerLike;
}

/** Commits faster than this (SQLite's) are never followed by a linger: its timer would cost more than it gathers. */
const lingerFromMs = 2;

/**
 * The group commit of DESIGN.md, with at most one commit in flight: `commit` is called with
 * the values that arrived together and, while it runs (until its result completes), every
 * arrival is queued; once it settles, the next commit takes everything queued, in arrays of
 * at most maxSize committed one after another in arrival order. Emits what the commits
 * emit, in commit order; a commit that fails errors the output (catch inside `commit` to
 * go on).
 *
 * An idle pipeline commits at the end of the arrival's event-loop turn, so every publish
 * whose body completed in one uWS poll joins, and a light load waits no longer than a turn.
 * Only values queued together (two or more at their turn's end) wait for more, until
 * maxWaitMs after the first arrived or until maxSize are queued: a lone publish on a server
 * set to `cache-batch-timeout: 1s` is answered at once, not a second later (issue 39). A
 * commit that takes a round trip (MongoDB) thus commits batches that grow with the load
 * instead of one turn each behind it. When a commit settles while
 * values of the current turn are still arriving, the next one waits for the turn's end to
 * take them too: the rest of that poll's sockets would otherwise wait a whole round trip.
 *
 * A full batch goes out at the turn's end too, not at once: a commit in the middle of a
 * turn answers its publishers from inside another socket's handler, where uWS cannot cork
 * their responses and sends each header on its own (`cache-batch-size: 16` cost 66–76 µs a
 * publish against ~25). atTurnEnd runs after the poll phase and shares its turn end with
 * the subscribers' writes (streams/turn-end.ts).
 *
 * A slow commit (a database a round trip away, under load) lingers before the next: the
 * publishers it answered send their next publish at once, but those arrive after the next
 * commit took the queue, so without a wait the clients split into two groups committing
 * in turns, each commit carrying half of them. Waiting until as many arrived as the last
 * commit carried (or half its time, at most lingerMaxMs) merges them: on FerretDB one node
 * committed 64 publishes at a time instead of 32, +30% publishes/s, and three nodes racing
 * for one log twice as many. A light load (commits of one value) and a fast commit
 * (SQLite's, under lingerFromMs) never wait.
 */
export function groupCommit<T, R>(commit: (batch: T[]) => ObservableInput<R>, { maxSize, maxWaitMs, lingerMaxMs = 0, scheduler }: GroupCommitOptions): OperatorFunction<T, R> {
  const now = (): number => scheduler?.now() ?? performance.now();
  return (source) =>
    new Observable<R>((subscriber) => {
      /** Arrival order; the first `due` have seen their turn end (and any wait) and may be committed. */
      const queue: T[] = [];
      let due = 0;
      /** When the oldest value not yet due arrived. */
      let undueSince = 0;
      let cancelTimer: (() => void) | undefined;
      let inFlight: Subscription | undefined;
      let busy = false;
      let pumping = false;
      let sourceDone = false;
      /** While lingering: the queue length at which the next commit goes without waiting further. */
      let awaited = 0;
      let cancelLinger: (() => void) | undefined;

      /** Calls `then` after `waitMs` (0: at the turn's end); answers its cancellation. */
      const after = (waitMs: number, then: () => void): (() => void) => {
        if (scheduler) {
          const s = scheduler.schedule(then, waitMs);
          return () => s.unsubscribe();
        }
        if (waitMs === 0) return atTurnEnd(then);
        const t = setTimeout(then, waitMs);
        return () => clearTimeout(t);
      };

      const startTimer = (): void => {
        cancelTimer?.();
        cancelTimer = after(0, endOfTurn);
      };

      const linger = (waitMs: number, until: number): void => {
        awaited = until;
        cancelLinger = after(waitMs, endLinger);
      };

      function endLinger(): void {
        cancelLinger?.();
        cancelLinger = undefined;
        startTimer();
      }

      function endOfTurn(): void {
        const undue = queue.length - due;
        const waitMs = maxWaitMs > 0 && undue > 1 && (maxSize === 0 || undue < maxSize) ? undueSince + maxWaitMs - now() : 0;
        if (waitMs > 0) cancelTimer = after(waitMs, makeDue);
        else makeDue();
      }

      function makeDue(): void {
        cancelTimer = undefined;
        due = queue.length;
        pump();
      }

      // A loop, not recursion: a commit that completes synchronously comes back here.
      const pump = (): void => {
        if (pumping) return;
        pumping = true;
        while (!busy && due > 0 && !subscriber.closed) {
          const batch = queue.splice(0, maxSize > 0 ? Math.min(maxSize, due) : due);
          due -= batch.length;
          start(batch);
        }
        pumping = false;
        if (!busy && queue.length === 0 && sourceDone) subscriber.complete();
      };

      const start = (batch: T[]): void => {
        busy = true;
        const startedAt = now();
        let input: ObservableInput<R>;
        try {
          input = commit(batch);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        const commitment = from(input).subscribe({
          next: (value) => subscriber.next(value),
          error: (err) => subscriber.error(err),
          complete: () => {
            inFlight = undefined;
            busy = false;
            const took = now() - startedAt;
            const until = Math.min(queue.length + batch.length, maxSize > 0 ? maxSize : Infinity);
            if (lingerMaxMs > 0 && batch.length > 1 && took >= lingerFromMs && queue.length < until && !sourceDone) linger(Math.min(took / 2, lingerMaxMs), until);
            // Values of a turn still under way: the next commit takes them at its end.
            else if (due < queue.length) startTimer();
            else pump();
          },
        });
        // Not one that completed synchronously.
        if (busy) inFlight = commitment;
      };

      const subscription = source.subscribe({
        next: (value) => {
          if (queue.push(value) - 1 === due && maxWaitMs > 0) undueSince = now();
          if (cancelLinger) {
            if (queue.length >= awaited) endLinger();
            return;
          }
          // A full batch waits only for the turn's end (once per batch, not per arrival).
          if (queue.length - due === maxSize || !cancelTimer) startTimer();
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          cancelLinger?.();
          cancelLinger = undefined;
          cancelTimer?.();
          cancelTimer = undefined;
          due = queue.length;
          pump();
        },
      });
      return () => {
        cancelLinger?.();
        cancelTimer?.();
        inFlight?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
