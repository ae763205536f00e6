import { asyncScheduler, interval, map, merge, type OperatorFunction, type SchedulerLike } from 'rxjs';

/**
 * Interleaves a keepalive value every `periodMs` for as long as the stream is subscribed,
 * as ntfy does on its HTTP streams: proxies and mobile networks close connections that stay
 * silent, and clients use the keepalive to detect a dead stream.
 */
export function withKeepalive<T>(periodMs: number, keepalive: () => T, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<T, T> {
  return (source) => merge(source, interval(periodMs, scheduler).pipe(map(keepalive)));
}
