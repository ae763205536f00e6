import { from, Observable, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { atTurnEnd } from '../streams/turn-end.js';

export interface GroupCommitOptions {
  /** Commit arrays of at most this many values; 0 means no limit. */
  maxSize: number;
  /** How long an arrival may wait for more to join its batch; 0 means until the current event-loop turn ends. */
  maxWaitMs: number;
  /** Where the wait runs; tests pass a TestScheduler. Default: atTurnEnd / setTimeout. */
  scheduler?: SchedulerLike;
}

/**
 * The group commit of DESIGN.md, with at most one commit in flight: `commit` is called with
 * the values that arrived together and, while it runs (until its result completes), every
 * arrival is queued; once it settles, the next commit takes everything queued, in arrays of
 * at most maxSize committed one after another in arrival order. Emits what the commits
 * emit, in commit order; a commit that fails errors the output (catch inside `commit` to
 * go on).
 *
 * An idle pipeline commits at the end of the arrival's event-loop turn (or after maxWaitMs),
 * so every publish whose body completed in one uWS poll joins, and a light load waits no
 * longer than a turn. A commit that takes a round trip (MongoDB) thus commits batches that
 * grow with the load instead of one turn each behind it. When a commit settles while
 * values of the current turn are still arriving, the next one waits for the turn's end to
 * take them too: the rest of that poll's sockets would otherwise wait a whole round trip.
 *
 * A full batch goes out at the turn's end too, not at once: a commit in the middle of a
 * turn answers its publishers from inside another socket's handler, where uWS cannot cork
 * their responses and sends each header on its own (`cache-batch-size: 16` cost 66–76 µs a
 * publish against ~25). atTurnEnd runs after the poll phase and shares its turn end with
 * the subscribers' writes (streams/turn-end.ts).
 */
export function groupCommit<T, R>(commit: (batch: T[]) => ObservableInput<R>, { maxSize, maxWaitMs, scheduler }: GroupCommitOptions): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      /** Arrival order; the first `due` have seen their turn end and may be committed. */
      const queue: T[] = [];
      let due = 0;
      let cancelTimer: (() => void) | undefined;
      let inFlight: Subscription | undefined;
      let busy = false;
      let pumping = false;
      let sourceDone = false;

      const startTimer = (waitMs: number): void => {
        cancelTimer?.();
        if (scheduler) {
          const s = scheduler.schedule(endOfTurn, waitMs);
          cancelTimer = () => s.unsubscribe();
        } else if (waitMs > 0) {
          const t = setTimeout(endOfTurn, waitMs);
          cancelTimer = () => clearTimeout(t);
        } else {
          cancelTimer = atTurnEnd(endOfTurn);
        }
      };

      function endOfTurn(): void {
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
            // Values of a turn still under way: the next commit takes them at its end.
            if (due < queue.length) startTimer(0);
            else pump();
          },
        });
        // Not one that completed synchronously.
        if (busy) inFlight = commitment;
      };

      const subscription = source.subscribe({
        next: (value) => {
          queue.push(value);
          // A full batch waits only for the turn's end (once per batch, not per arrival).
          if (queue.length - due === maxSize) startTimer(0);
          else if (!cancelTimer) startTimer(maxWaitMs);
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          cancelTimer?.();
          cancelTimer = undefined;
          due = queue.length;
          pump();
        },
      });
      return () => {
        cancelTimer?.();
        inFlight?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
