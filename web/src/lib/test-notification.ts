import { topicUrl } from './config.js';
import { authHeaders } from './session.js';
import { formatClock } from './format.js';
import { t } from './i18n.js';

/**
 * Publishes a test message to `topic`, as ntfy's web app's "Send test notification" does, so
 * the visitor sees the whole path work: publish, delivery, the list and the browser's notification.
 * Resolves with the server's error text when it refuses (a read-only topic, a rate limit).
 */
export async function sendTestNotification(topic: string): Promise<string | undefined> {
  const params = new URLSearchParams({ title: t('testNotification.title'), tags: 'tada', message: t('testNotification.message', { time: formatClock(Date.now()) }) });
  const res = await fetch(`${topicUrl(topic)}?${params}`, { method: 'PUT', headers: authHeaders() });
  if (res.ok) return undefined;
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  return body.error ?? `HTTP ${res.status}`;
}
