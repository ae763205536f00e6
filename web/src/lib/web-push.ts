import { api } from './api.js';
import { serverConfig } from './config.js';
import { notificationSupport } from './notifier.js';
import { backgroundPush, serviceWorker } from './service-worker.js';
import { session } from './session.js';
import { settings } from './settings.js';
import { subscriptions } from './subscriptions.js';

/** Topics one browser subscription may name (the server's webPushTopicLimit, 40040 beyond). */
const topicLimit = 50;
/**
 * The registration is sent again at least this often while the app is open (ntfy's web app:
 * hourly): the server drops a subscription not renewed for web-push-expiry-duration (60 days).
 */
const renewEveryMs = 3_600_000;

/** Whether this server sends Web Push and this browser can take it (a service worker and the Push API, on a secure page). */
export function webPushOffered(): boolean {
  return serverConfig.enable_web_push && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window;
}

let queue: Promise<void> = Promise.resolve();
let sent: { key: string; at: number } | undefined;

/**
 * Keeps this browser's Web Push subscription in step with the subscribed topics while the
 * setting is on (POST /v1/webpush, the whole list each time, as ntfy's web app): at start,
 * whenever the topics change, when the page shows again and hourly, so the server's copy is
 * renewed. Off, or with no topics left (logged out), the subscription is deleted at the
 * server and in the browser, and the notifications shown of the session's topics are closed.
 * Call once at start.
 */
export function startWebPush(): void {
  subscriptions.subscribe(syncLater);
  settings.subscribe(syncLater);
  session.subscribe((value) => {
    if (!value) void closeShownNotifications();
    syncLater(); // the registration is the user's: another user's is sent anew
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') syncLater();
  });
  setInterval(syncLater, renewEveryMs);
  syncLater();
}

/** Runs one sync after the one under way: two at once could both subscribe. */
function syncLater(): void {
  queue = queue.then(sync);
}

async function sync(): Promise<void> {
  const registration = await serviceWorker();
  if (!registration || !webPushOffered()) return;
  const wanted = settings.value.backgroundNotifications === true && webPushOffered() && notificationSupport() === 'granted';
  // This server pushes its own topics only; other servers' arrive while the app is open (as ntfy's web app).
  const topics = wanted ? subscriptions.value.filter((s) => !s.baseUrl).map((s) => s.topic).slice(0, topicLimit) : [];
  const key = `${session.value?.username ?? ''}:${topics.join(',')}`;
  if (sent && sent.key === key && Date.now() - sent.at < renewEveryMs) return; // messages change the store too: only a new list is sent
  try {
    let subscription = await registration.pushManager.getSubscription();
    if (topics.length === 0) {
      if (subscription) {
        await api('DELETE', '/v1/webpush', { body: { endpoint: subscription.endpoint } });
        await subscription.unsubscribe();
      }
      backgroundPush.set({ active: false });
    } else {
      const serverKey = bytesOfBase64Url(serverConfig.web_push_public_key);
      // Subscribed under another VAPID key (the server's was replaced): its pushes would be refused.
      if (subscription && !sameBytes(subscription.options.applicationServerKey, serverKey)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
      const keys = subscription.toJSON().keys ?? {};
      await api('POST', '/v1/webpush', { body: { endpoint: subscription.endpoint, auth: keys.auth ?? '', p256dh: keys.p256dh ?? '', topics } });
      backgroundPush.set({ active: true });
    }
    sent = { key, at: Date.now() };
  } catch (err) {
    sent = undefined;
    backgroundPush.set({ active: false, error: err instanceof Error ? err.message : String(err) });
  }
}

/** Logged out: what the notifications showed of protected topics goes with the rest (issue 40). */
async function closeShownNotifications(): Promise<void> {
  const registration = await serviceWorker();
  for (const notification of (await registration?.getNotifications()) ?? []) notification.close();
}

function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((x, i) => x === b[i]);
}
