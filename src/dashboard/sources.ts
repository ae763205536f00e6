import type { Metrics } from '../metrics/metrics.js';
import type { ServerContext } from '../transports/context.js';
import type { FrameSources } from './frames.js';

/** The frames' figures, read from the server's state and its metrics' counters. */
export function frameSources(ctx: ServerContext, metrics: Metrics): FrameSources {
  return {
    feed: ctx.feed,
    subscriptions: ctx.subscriptions,
    cache: ctx.cache,
    visitors: () => ctx.visitors.size,
    topics: () => ctx.topics.size,
    limitHits: () => metrics.limitHits(),
    slowSubscribersDropped: () => ctx.counters.slowSubscribersDropped,
    onError: (err) => ctx.log.warn({ err }, 'reading the cache figures for the dashboard failed; its frames show the last ones read'),
  };
}
