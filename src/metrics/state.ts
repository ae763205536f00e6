import type { ServerContext } from '../transports/context.js';

/** What the state gauges read when scraped; nothing on the request path updates them. */
export interface ServerState {
  cachedMessages(): Promise<number>;
  attachmentBytes(): Promise<number>;
  visitors(): number;
  visitorsEvicted(): number;
  users(): Promise<number>;
  subscribers(): number;
  topics(): number;
  /** Lines the ban feed wrote (0 without ban-file). */
  banLines(): number;
}

/**
 * The server's state as ntfy's gauges count it. Subscribers are open subscriber
 * connections; ntfy sums each topic's subscribers, so a subscription to a,b counts
 * twice there and once here.
 */
export function stateOf(ctx: Pick<ServerContext, 'cache' | 'attachments' | 'visitors' | 'access' | 'connections' | 'topics' | 'bans'>): ServerState {
  return {
    cachedMessages: () => ctx.cache.count(),
    attachmentBytes: async () => (ctx.attachments ? ctx.attachments.total() : 0),
    visitors: () => ctx.visitors.size,
    visitorsEvicted: () => ctx.visitors.evicted,
    users: async () => (ctx.access ? ctx.access.store.userCount() : 0),
    subscribers: () => ctx.connections.size,
    topics: () => ctx.topics.size,
    banLines: () => ctx.bans?.lines ?? 0,
  };
}
