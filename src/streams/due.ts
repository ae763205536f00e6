import { exhaustMap, from, interval, type SchedulerLike, type Subscription, asyncScheduler } from 'rxjs';
import { nowSeconds } from '../model/message.js';
import type { MessageCache } from '../store/message-cache.js';
import type { TopicHub } from './hub.js';

/**
 * Delivers scheduled messages once they fall due: every `periodMs` the cache hands over
 * (and marks published) the due ones, which go to the hub like fresh messages. The cache
 * marks them in the same transaction, so each is delivered once, across restarts too.
 */
export function deliverDue(cache: MessageCache, hub: TopicHub, periodMs: number, onError: (err: unknown) => void, scheduler: SchedulerLike = asyncScheduler): Subscription {
  return interval(periodMs, scheduler)
    .pipe(exhaustMap(() => from(cache.takeDue(nowSeconds()).catch((err: unknown) => (onError(err), [])))))
    .subscribe((events) => {
      for (const event of events) hub.deliver(event);
    });
}
