import { errors } from '../../model/errors.js';
import type { Guard } from './guard.js';

/**
 * The topic registry admits the request's topics, every one or none (streams/topics.ts):
 * 42904 past global-topic-limit, 42911 past the visitor's topic-creation bucket (ntfy
 * 2.23: a topic no request named recently costs a token), and a disallowed name, which a publish answers with 40010
 * and a subscription with 40009, as ntfy's topicsFromPath reports it (ntfy reports the
 * limit as 40009 too; 42904 says what went wrong). A subscription holds its topics in the
 * registry until it ends (Gate.holdTopics).
 */
export const topicLimit =
  (kind: 'publish' | 'subscribe'): Guard =>
  (gate) => {
    try {
      gate.ctx.topics.admit(gate.topics, kind, (count) => gate.visitor.createTopics(count, Date.now()));
    } catch (err) {
      throw kind === 'subscribe' && err === errors.topicDisallowed ? errors.topicInvalid : err;
    }
    if (kind === 'subscribe') gate.holdTopics();
  };
