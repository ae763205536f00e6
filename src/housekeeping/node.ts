import type { ServerContext } from '../transports/context.js';

/**
 * The housekeeping of what this node holds in memory, run by every node on its own timer
 * (`repeatLocally`): topics idle past cache-duration, visitors, failed-login buckets and
 * ban-feed strikes no longer needed, and this node's share of the published-messages total, saved as an
 * increment (see Stats). Errors are logged; the next tick tries again.
 */
export async function nodeHousekeeping(ctx: Pick<ServerContext, 'config' | 'log' | 'hub' | 'topics' | 'visitors' | 'access' | 'bans' | 'stats'>): Promise<void> {
  try {
    ctx.topics.prune((topic) => ctx.hub.isLive(topic), Date.now() - ctx.config.cacheDurationMs);
    ctx.visitors.forget(Date.now());
    ctx.access?.forget();
    ctx.bans?.forget();
    await ctx.stats.save();
    ctx.stats.sample();
    ctx.log.debug({ topics: ctx.topics.size, liveTopics: ctx.hub.liveTopics }, 'node housekeeping');
  } catch (err) {
    ctx.log.error({ err }, 'node housekeeping failed');
  }
}
