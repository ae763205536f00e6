import type { Guard } from './guard.js';

/**
 * One of the visitor's visitor-subscription-limit subscriptions (42903), held until the
 * request ends: a stream until it closes, a poll while it runs (as ntfy's
 * handleSubscribeHTTP and handleSubscribeWS).
 */
export const subscriptionLimit: Guard = (gate) => gate.holdSubscription();
