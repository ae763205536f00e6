import type { KeptWebPushSubscription, WebPushStore } from '../store/webpush-store.js';
import type { Summary } from './summary.js';

const kind = 'web push subscriptions';

/**
 * Writes browsers' push subscriptions into Tocsin's web push store as they were kept (id,
 * times, warning sent), or only counts them without a store (a dry run). One Tocsin's
 * housekeeping would remove (not renewed for web-push-expiry-duration, `expiryMs`; 0
 * keeps them all) is left out; an endpoint held already is skipped.
 */
export async function writeWebPush(subscriptions: readonly KeptWebPushSubscription[], store: WebPushStore | undefined, summary: Summary, now: number, expiryMs: number): Promise<void> {
  for (const subscription of subscriptions) {
    summary.read(kind);
    if (expiryMs > 0 && subscription.updatedAt <= now - expiryMs / 1000) summary.skipped(kind, 'expired');
    else if (!store || (await store.import(subscription))) summary.added(kind);
    else summary.skipped(kind, 'already there');
  }
}

/** Counts the subscriptions read as skipped: the Tocsin config turns web push off. */
export function leaveOutWebPush(count: number, summary: Summary): void {
  summary.read(kind, count);
  summary.skipped(kind, 'not kept: the Tocsin config sets no web-push keys', count);
}
