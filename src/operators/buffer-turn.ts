import { Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { atTurnEnd } from '../streams/turn-end.js';

export interface BufferTurnOptions {
  /** Emit arrays of at most this many values, and no later than the turn's end once this many are buffered; 0 means no limit. */
  maxSize: number;
  /** Wait this long for more values; 0 means until the current event-loop turn ends. */
  maxWaitMs: number;
  /** Where the wait runs; tests pass a TestScheduler. Default: atTurnEnd / setTimeout. */
  scheduler?: SchedulerLike;
}

/**
 * Collects values into arrays: everything that arrives in one event-loop turn (or within
 * maxWaitMs) is emitted together. This is the group commit of DESIGN.md: all publishes
 * whose bodies completed in one uWS poll become one cache transaction. atTurnEnd runs
 * after the poll phase, so one turn spans every socket that was readable.
 *
 * A full buffer goes out at the turn's end too, in arrays of maxSize, not at once: a
 * commit in the middle of a turn answers its publishers from inside another socket's
 * handler, where uWS cannot cork their responses and sends each header on its own
 * (`cache-batch-size: 16` cost 66–76 µs a publish against ~25).
 */
export function bufferTurn<T>({ maxSize, maxWaitMs, scheduler }: BufferTurnOptions): OperatorFunction<T, T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let buffer: T[] = [];
      let cancelTimer: (() => void) | undefined;

      const flush = (): void => {
        cancelTimer?.();
        cancelTimer = undefined;
        const values = buffer;
        buffer = [];
        const size = maxSize > 0 ? maxSize : values.length;
        for (let at = 0; at < values.length; at += size) subscriber.next(values.slice(at, at + size));
      };

      const startTimer = (waitMs: number): void => {
        if (scheduler) {
          const s = scheduler.schedule(flush, waitMs);
          cancelTimer = () => s.unsubscribe();
        } else if (waitMs > 0) {
          const t = setTimeout(flush, waitMs);
          cancelTimer = () => clearTimeout(t);
        } else {
          cancelTimer = atTurnEnd(flush);
        }
      };

      const subscription = source.subscribe({
        next: (value) => {
          buffer.push(value);
          // Reached once per batch: from then on the flush waits only for the turn's end.
          if (buffer.length === maxSize) {
            cancelTimer?.();
            startTimer(0);
          } else if (!cancelTimer) startTimer(maxWaitMs);
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        cancelTimer?.();
        subscription.unsubscribe();
      };
    });
}
