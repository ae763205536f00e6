import { nowSeconds } from '../model/message.js';
import type { Config } from '../config/schema.js';
import type { ServerContext } from '../transports/context.js';
import { dropOverMaxMessages } from './topic-retention.js';

/**
 * The housekeeping of the stores every node shares, run as one Agenda job so that one node
 * at a time does it (see Scheduler): expired messages, messages over their topic's
 * max-messages (topic-retention.ts), expired tokens and magic links, and expired
 * attachments with their entry in the cached messages, web push subscriptions not renewed
 * in time (warned, then removed), receipts of repeated alerts past their keeping, and the attachment storage's sweep (an S3 bucket's
 * orphans, at the store's own cadence). Errors are logged; the next run tries again.
 */
export async function sharedHousekeeping(ctx: Pick<ServerContext, 'log' | 'cache' | 'access' | 'attachments' | 'webPush'> & Partial<Pick<ServerContext, 'alerts'>> & { config: Pick<Config, 'topicRetention'> }): Promise<void> {
  try {
    const pruned = await ctx.cache.prune(nowSeconds());
    const trimmed = await dropOverMaxMessages(ctx.cache, ctx.config.topicRetention);
    await ctx.access?.store.removeExpiredTokens(nowSeconds());
    await ctx.access?.store.removeExpiredMagicLinks(nowSeconds());
    const expiredFiles = (await ctx.attachments?.expire(nowSeconds())) ?? [];
    if (expiredFiles.length > 0) await ctx.cache.dropAttachments(expiredFiles);
    const webPush = await ctx.webPush?.housekeep(nowSeconds());
    const receipts = await ctx.alerts?.store.prune(nowSeconds());
    ctx.log.debug({ pruned, receipts, trimmed: [...trimmed.values()].reduce((sum, t) => sum + t.count, 0), expiredFiles: expiredFiles.length, webPush }, 'shared housekeeping');
    // Last: a bucket that cannot be listed (down, or keys without the right) holds up nothing else.
    const swept = await ctx.attachments?.sweep?.(Date.now());
    if (swept) ctx.log.info({ swept }, 'attachment storage swept');
  } catch (err) {
    ctx.log.error({ err }, 'shared housekeeping failed');
  }
}
