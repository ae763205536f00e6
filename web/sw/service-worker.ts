import { performHttpAction } from '../src/lib/http-action.js';
import { safeHref } from '../src/lib/links.js';
import type { Action, Message } from '../src/lib/message.js';
import { notificationContent, type NotificationData } from '../src/lib/notification-content.js';

declare const self: ServiceWorkerGlobalScope;

/**
 * The app's service worker: it shows the Web Push messages the server sends (src/push/web-push.ts)
 * while no tab of the app is open, and handles clicks on every notification the app shows.
 * It caches nothing: the app is of no use without its server, and a cache would only
 * keep an old build alive.
 */

/** The app's root, where this script is served: its topic pages hang below it. */
const appRoot = self.registration.scope;
const appIcon = new URL('static/icon-192.png', appRoot).href;

/** What the server pushes (ntfy's webPushPayload): a message, or the warning that the subscription will expire. */
interface PushPayload {
  event?: string;
  message?: Message;
}

// A new build takes over at once, and the open tabs with it, so a click finds them.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => event.waitUntil(show(payloadOf(event.data))));

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as NotificationData | undefined;
  const action = event.action === '' ? undefined : data?.message.actions?.[Number(event.action)];
  // As ntfy's apps: a button leaves the notification up unless its action says `clear`.
  if (!action || action.clear) event.notification.close();
  event.waitUntil(clicked(data, action));
});

function payloadOf(data: PushMessageData | null): PushPayload {
  try {
    return (data?.json() ?? {}) as PushPayload;
  } catch {
    return {}; // not JSON: shown as an unknown notification below
  }
}

async function show(payload: PushPayload): Promise<void> {
  if (payload.event === 'message' && payload.message) {
    const { title, options } = notificationContent(payload.message, new URL(payload.message.topic, appRoot).href, appIcon);
    return self.registration.showNotification(title, options);
  }
  // Every push must show something (the subscription is userVisibleOnly), or the browser
  // shows a notice of its own and may stop the pushes.
  const expiring = payload.event === 'subscription_expiring';
  return self.registration.showNotification(expiring ? 'Notifications will stop soon' : 'New notification', {
    body: expiring ? 'Open Tocsin to keep receiving them.' : 'Open Tocsin to see it.',
    icon: appIcon,
    tag: expiring ? 'subscription-expiring' : 'unknown',
  });
}

/** A click on the notification opens its click URL or its topic's page; on an action button, carries out that action. */
async function clicked(data: NotificationData | undefined, action: Action | undefined): Promise<void> {
  if (!data) return openPage(appRoot);
  const { message, topicPage } = data;
  if (action?.action === 'http') return send(action);
  const url = safeHref(action?.action === 'view' ? action.url : message.click);
  if (url) {
    await self.clients.openWindow(url);
    return;
  }
  return openPage(topicPage);
}

/** Focuses a tab of the app on `url`: one showing it, else another tab of the app sent there, else a new one. */
async function openPage(url: string): Promise<void> {
  const tabs = await self.clients.matchAll({ type: 'window' });
  const tab = tabs.find((t) => t.url === url) ?? tabs[0];
  if (!tab) {
    await self.clients.openWindow(url);
    return;
  }
  const shown = tab.url === url ? tab : ((await tab.navigate(url)) ?? tab);
  await shown.focus();
}

/** An http action, sent from here as the page sends it; a failure is shown as a notification of its own. */
async function send(action: Action): Promise<void> {
  try {
    await performHttpAction(action);
  } catch (err) {
    await self.registration.showNotification(err instanceof Error ? err.message : String(err), { icon: appIcon });
  }
}
