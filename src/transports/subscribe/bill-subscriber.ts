import type { AccessControl } from '../../auth/access-control.js';
import type { User } from '../../model/access.js';
import type { Gate } from '../guards/guard.js';

/** UnifiedPush topics as ntfy tells them: `up` and 12 more characters. */
const unifiedPushTopic = /^up[-_A-Za-z0-9]{12}$/;

/**
 * visitor-subscriber-rate-limiting: a subscriber takes over the bill of the UnifiedPush
 * topics it may publish to itself — with an auth-file, those it reserved or, unreserved,
 * may write to (ntfy's maybeSetRateVisitors). Returns nothing when there is nothing to
 * wait for, so the WebSocket upgrade stays synchronous.
 */
export function billSubscriber({ ctx, topics, user, visitor }: Gate): void | Promise<void> {
  if (!ctx.config.visitorSubscriberRateLimiting) return;
  const access = ctx.access;
  const billed = topics.filter((t) => unifiedPushTopic.test(t));
  if (!access) {
    for (const topic of billed) ctx.visitors.billTo(topic, visitor);
    return;
  }
  return (async () => {
    for (const topic of billed) if (await mayBill(access, topic, user)) ctx.visitors.billTo(topic, visitor);
  })();
}

async function mayBill(access: AccessControl, topic: string, user: User | undefined): Promise<boolean> {
  const owner = await access.store.reservationOwner(topic);
  if (owner !== undefined) return owner === user?.name;
  return access.authorize(user, [topic], 'write').then(
    () => true,
    () => false,
  );
}
