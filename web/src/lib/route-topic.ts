import type { Route } from './route.js';
import { parseBaseUrl, type Located } from './servers.js';
import { routeKey, subscribe, subscriptionOf } from './subscriptions.js';

/**
 * Opening a topic's page subscribes to it, as ntfy's web app does. /{server}/{topic} of a
 * server no subscription is on is taken as https (ntfy's expandSecureUrl): a link never
 * downgrades to plain HTTP on its own.
 */
export async function subscribeToRoute(r: Route): Promise<void> {
  if (r.page !== 'topic') return;
  if (r.server === undefined) return subscribe(r.topic);
  if (routeKey(r) !== undefined) return;
  const parsed = parseBaseUrl(`https://${r.server.replaceAll('%2F', '/')}`);
  if ('url' in parsed) await subscribe(r.topic, parsed.url);
}

/** Where the publish dialog publishes at first: the topic of the page shown, on its server. */
export function publishTarget(r: Route): Located {
  const sub = subscriptionOf(routeKey(r) ?? '');
  if (sub) return sub.baseUrl ? { baseUrl: sub.baseUrl, topic: sub.topic } : { topic: sub.topic };
  return { topic: r.page === 'topic' && r.server === undefined ? r.topic : '' };
}
