import { authHeadersFor } from './server-users.js';
import { serverOf, topicUrlOf, type Located } from './servers.js';
import { formatClock } from './format.js';
import { t } from './i18n.js';

/**
 * Publishes a test message to the topic (on its server), as ntfy's web app's "Send test notification" does, so
 * the visitor sees the whole path work: publish, delivery, the list and the browser's notification.
 * Resolves with the server's error text when it refuses (a read-only topic, a rate limit).
 */
export async function sendTestNotification(where: Located): Promise<string | undefined> {
  const params = new URLSearchParams({ title: t('testNotification.title'), tags: 'tada', message: t('testNotification.message', { time: formatClock(Date.now()) }) });
  const res = await fetch(`${topicUrlOf(where)}?${params}`, { method: 'PUT', headers: authHeadersFor(serverOf(where)) });
  if (res.ok) return undefined;
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  return body.error ?? `HTTP ${res.status}`;
}
