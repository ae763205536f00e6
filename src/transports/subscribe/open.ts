import { errors } from '../../model/errors.js';
import { openSubscription, type Opened } from '../../streams/subscription.js';
import type { Visitor } from '../../visitors/visitors.js';
import { replayLimitBytes, type ServerContext } from '../context.js';
import type { SubscribeParams } from './params.js';

/**
 * Opens a subscription whose replay is paid from the visitor's daily bandwidth: when too
 * little is left it answers 42905 and sends nothing, rather than part of the replay.
 */
export async function openBilled(ctx: ServerContext, visitor: Visitor, topics: string[], params: SubscribeParams): Promise<Opened> {
  const opened = await openSubscription({ hub: ctx.hub, cache: ctx.cache, feed: ctx.feed, replayLimit: replayLimitBytes }, { topics, ...params });
  if (opened.replayBytes > 0 && !visitor.transfer(opened.replayBytes, Date.now())) {
    opened.cancel();
    throw errors.bandwidthLimit;
  }
  return opened;
}

/** Whether the request asks for cached messages (which must be paid for before the upgrade). */
export function replays(params: SubscribeParams): boolean {
  return params.poll || params.since.kind !== 'none';
}
