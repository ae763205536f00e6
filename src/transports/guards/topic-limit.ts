import { errors } from '../../model/errors.js';
import type { Guard } from './guard.js';

/**
 * The topic registry admits the request's topics, every one or none (streams/topics.ts):
 * 42904 past global-topic-limit, and a disallowed name, which a publish answers with 40010
 * and a subscription with 40009, as ntfy's topicsFromPath reports it (ntfy reports the
 * limit as 40009 too; 42904 says what went wrong).
 */
export const topicLimit =
  (kind: 'publish' | 'subscribe'): Guard =>
  ({ ctx, topics }) => {
    try {
      ctx.topics.admit(topics);
    } catch (err) {
      throw kind === 'subscribe' && err === errors.topicDisallowed ? errors.topicInvalid : err;
    }
  };
