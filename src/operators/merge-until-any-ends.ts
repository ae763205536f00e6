import { Observable, Subscription } from 'rxjs';

/**
 * What every one of `sources` emits, as `merge` does, but complete as soon as any one of
 * them completes (merge waits for all): a subscription of several topics whose live
 * stream the hub ended for one topic (a lost range of that topic's log) must end too, so
 * that its client reconnects with `since=`.
 */
export function mergeUntilAnyEnds<T>(sources: readonly Observable<T>[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    const all = new Subscription();
    if (sources.length === 0) subscriber.complete();
    for (const source of sources) {
      if (subscriber.closed) break;
      all.add(source.subscribe({ next: (value) => subscriber.next(value), error: (err: unknown) => subscriber.error(err), complete: () => subscriber.complete() }));
    }
    return all;
  });
}
