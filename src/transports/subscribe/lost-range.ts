import type { LostRange } from '../../store/live-feed.js';
import type { ServerContext } from '../context.js';

/**
 * The live feed lost `range` (LiveFeed.lost$: on MongoDB, the capped log dropped it before
 * this node read it, or a failover replaced a batch it had handed on). Which topics its
 * events had is unknown beyond their log, so every live stream of a topic of that log (of
 * any topic, with one log) may have missed one: the hub ends them (TopicHub.interrupt),
 * each as its transport does when interrupted (an HTTP stream ends, a WebSocket drops; a
 * stream of several topics ends with any of them), so that their clients reconnect with
 * `since=` and read what the cache still holds. Subscriptions still opening end as they go
 * live. One warning per range, with the streams ended; answers how many.
 */
export function interruptLiveStreams(ctx: Pick<ServerContext, 'hub' | 'connections' | 'log' | 'metrics'>, range: LostRange): number {
  const open = ctx.connections.size;
  ctx.hub.interrupt(range.covers); // synchronous: each stream leaves ctx.connections as it ends
  const closed = open - ctx.connections.size;
  ctx.metrics?.lostRange(range);
  ctx.log.warn(
    { from: range.from, to: range.to, ...(range.log !== undefined && { log: range.log }), closed },
    `live feed: positions ${range.from}-${range.to}${range.log === undefined ? '' : ` of log ${range.log}`} will not be delivered live on this node; ended its ${closed} live streams${range.log === undefined ? '' : " of that log's topics"} so that their clients reconnect with since=`,
  );
  return closed;
}
