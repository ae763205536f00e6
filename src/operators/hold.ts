import { Observable, type Subscription } from 'rxjs';

export interface Held<T> {
  /** Emits everything the source emitted since `hold` was called, then follows it live. */
  readonly observable: Observable<T>;
  /** Stops holding when no one subscribed (the replay failed, the client left). */
  release(): void;
}

/**
 * Subscribes to `source` at once and keeps its values until the single consumer subscribes.
 * Gapless replay (DESIGN.md) attaches to the live topic with this before it reads the
 * cache, so a message published during the read is never missed.
 */
export function hold<T>(source: Observable<T>): Held<T> {
  let queue: T[] | undefined = [];
  let terminal: { error: unknown } | { complete: true } | undefined;
  let consumer: { next(v: T): void; error(e: unknown): void; complete(): void } | undefined;

  const upstream: Subscription = source.subscribe({
    next: (value) => (consumer ? consumer.next(value) : queue?.push(value)),
    error: (error) => (consumer ? consumer.error(error) : (terminal = { error })),
    complete: () => (consumer ? consumer.complete() : (terminal = { complete: true })),
  });

  const observable = new Observable<T>((subscriber) => {
    if (consumer) throw new Error('hold: a held stream has exactly one consumer');
    const backlog = queue ?? [];
    queue = undefined;
    for (const value of backlog) subscriber.next(value);
    if (terminal) {
      if ('error' in terminal) subscriber.error(terminal.error);
      else subscriber.complete();
      return;
    }
    consumer = subscriber;
    return () => upstream.unsubscribe();
  });

  return { observable, release: () => upstream.unsubscribe() };
}
