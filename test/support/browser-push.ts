import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { RawValues } from '../../src/config/load.js';
import type { Json } from './clients.js';
import type { Browser as PushBrowser, PushService } from './push-service.js';

/**
 * Chromium's push service is Google's FCM: it cannot be reached here, and subscribing
 * without it crashes headless Chromium (and the Push API is off in its default, incognito,
 * profile). So the browser's subscription at that service is stood in for by one at the
 * local push service (test/support/push-service.ts), which checks VAPID and decrypts as FCM
 * would, and `deliverPush` hands what it decrypted to the worker over the DevTools protocol:
 * the leg FCM would carry. Everything else — the app subscribing, /v1/webpush, the server's
 * push, the worker — is the real thing.
 *
 * This installs the stand-in in every page of `context`: PushManager's subscribe answers a
 * subscription with `browser`'s endpoint and keys (kept in localStorage, as the browser
 * keeps its own; its `applicationServerKey` is the key the app subscribed with), and
 * getSubscription answers it until it is unsubscribed.
 */
export async function standInPushSubscription(context: BrowserContext, browser: PushBrowser): Promise<void> {
  const keys = { endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth };
  await context.addInitScript(`(() => {
    const browser = ${JSON.stringify(keys)};
    const stored = 'test.push-subscription';
    const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
    const subscription = (serverKey) => ({
      endpoint: browser.endpoint,
      options: { userVisibleOnly: true, applicationServerKey: bytes(serverKey) },
      toJSON: () => ({ endpoint: browser.endpoint, keys: { p256dh: browser.p256dh, auth: browser.auth } }),
      unsubscribe: async () => (localStorage.removeItem(stored), true),
    });
    PushManager.prototype.subscribe = async function (options) {
      if (options.userVisibleOnly !== true) throw new DOMException('only user-visible pushes are allowed', 'NotAllowedError');
      const serverKey = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
      localStorage.setItem(stored, serverKey);
      return subscription(serverKey);
    };
    PushManager.prototype.getSubscription = async function () {
      const serverKey = localStorage.getItem(stored);
      return serverKey === null ? null : subscription(serverKey);
    };
  })()`);
}

/**
 * Delivers a push's decrypted payload to the service worker registered for `origin`, as
 * the browser does when its push service hands one over; needs no page of the app open
 * (the session is a blank page's).
 */
export async function deliverPush(context: BrowserContext, origin: string, payload: Json): Promise<void> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
      const found = list.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (found) resolve(found.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrations, data: JSON.stringify(payload) });
  await page.close();
}

/** A web server's settings (startWebServer) that turn Web Push on, towards `service` only. */
export function webPushSettings(dir: string, service: PushService, vapid: { publicKey: string; privateKey: string }): RawValues {
  return {
    'web-push-public-key': vapid.publicKey,
    'web-push-private-key': vapid.privateKey,
    'web-push-file': join(dir, 'webpush.db'),
    'web-push-email-address': 'admin@tocsin.test',
    'web-push-allowed-endpoints': [`${service.url}/push/`],
    'web-push-allow-private-endpoints': true, // the push service listens on 127.0.0.1
  };
}
