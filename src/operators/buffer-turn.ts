import { Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { atTurnEnd } from '../streams/turn-end.js';

export interface BufferTurnOptions {
  /** Emit as soon as this many values are buffered; 0 means no limit. */
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
 */
export function bufferTurn<T>({ maxSize, maxWaitMs, scheduler }: BufferTurnOptions): OperatorFunction<T, T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let buffer: T[] = [];
      let cancelTimer: (() => void) | undefined;

      const flush = (): void => {
        cancelTimer?.();
        cancelTimer = undefined;
        if (buffer.length === 0) return;
        const batch = buffer;
        buffer = [];
        subscriber.next(batch);
      };

      const startTimer = (): void => {
        if (scheduler) {
          const s = scheduler.schedule(flush, maxWaitMs);
          cancelTimer = () => s.unsubscribe();
        } else if (maxWaitMs > 0) {
          const t = setTimeout(flush, maxWaitMs);
          cancelTimer = () => clearTimeout(t);
        } else {
          cancelTimer = atTurnEnd(flush);
        }
      };

      const subscription = source.subscribe({
        next: (value) => {
          buffer.push(value);
          if (maxSize > 0 && buffer.length >= maxSize) flush();
          else if (!cancelTimer) startTimer();
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
