import { visitorOf } from '../client.js';
import type { Guard } from './guard.js';

/**
 * One request from the visitor's bucket (42901), which makes it the visitor the request
 * is billed to. `payer`: a publish to a UnifiedPush topic whose subscriber took over its
 * bill (visitor-subscriber-rate-limiting) draws on the subscriber's bucket instead. The
 * request's own visitor is seen either way, so it is not forgotten while active.
 */
export const requestRate =
  (whose: 'own' | 'payer'): Guard =>
  (gate) => {
    const own = visitorOf(gate.ctx, gate.req, gate.user);
    const now = Date.now();
    const [topic] = gate.topics;
    const payer = whose === 'payer' && gate.topics.length === 1 ? gate.ctx.visitors.payer(topic as string, now) : undefined;
    const visitor = payer || own;
    own.seenAt = now;
    visitor.request(now);
    gate.visitor = visitor;
  };
