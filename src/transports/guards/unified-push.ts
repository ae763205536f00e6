import { errors } from '../../model/errors.js';
import type { Guard, ParsedPublish } from './guard.js';

/**
 * visitor-subscriber-rate-limiting: a UnifiedPush app server's publish must find a
 * subscriber to bill (50701, a 5xx, so Mastodon keeps the subscription).
 */
export const unifiedPushPayer: Guard<ParsedPublish> = ({ gate, unifiedPush }) => {
  const { ctx, topics } = gate;
  if (unifiedPush && ctx.config.visitorSubscriberRateLimiting && !ctx.visitors.payer(topics[0] as string, Date.now())) throw errors.insufficientStorageUnifiedPush;
};
