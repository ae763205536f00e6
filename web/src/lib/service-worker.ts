import { appRoot } from './config.js';
import { Store } from './store.js';

/** The app's service worker (web/sw/), registered at start; undefined where browsers offer none (plain HTTP). */
let registration: Promise<ServiceWorkerRegistration | undefined> = Promise.resolve(undefined);

/**
 * Registers the worker, served at the app's root so that its scope is the whole app (under
 * a path prefix too). Browsers allow workers on secure pages only: HTTPS, or localhost.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  registration = navigator.serviceWorker.register(`${appRoot}sw.js`, { scope: appRoot }).catch(() => undefined);
}

export function serviceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  return registration;
}

/**
 * Whether this browser gets the subscribed topics' messages by Web Push, so the worker shows
 * them, with no tab open (web-push.ts); the error of the last registration, if it failed.
 */
export const backgroundPush = new Store<{ active: boolean; error?: string }>({ active: false });
