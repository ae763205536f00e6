import { appRoot } from './config.js';
import { safeHref } from './links.js';
import type { Message } from './message.js';
import { notificationContent } from './notification-content.js';
import { backgroundPush, serviceWorker } from './service-worker.js';
import { settings } from './settings.js';
import { Store } from './store.js';
import { t } from './i18n.js';

/**
 * Whether the browser may show notifications, or why not, told apart as ntfy's web app does
 * so the settings can say what to do: `ask` needs a click (browsers refuse it otherwise).
 */
export type NotificationSupport = 'granted' | 'ask' | 'denied' | 'ios-install' | 'insecure' | 'unsupported';

export function notificationSupport(): NotificationSupport {
  // iOS (16.4 and later) lets an app added to the Home Screen notify, never a Safari tab.
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone;
  if (standalone === false && navigator.maxTouchPoints > 1) return 'ios-install';
  // Browsers offer notifications (and service workers, and push) to secure pages only: HTTPS, or localhost.
  if (!window.isSecureContext) return 'insecure';
  if (!('Notification' in window)) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' ? 'granted' : 'ask';
}

export const notificationsAllowed = (): boolean => notificationSupport() === 'granted';

export async function askForNotifications(): Promise<boolean> {
  if (!('Notification' in window)) return false;
  return (await Notification.requestPermission()) === 'granted';
}

/** The latest live message in words, for the page's live region: what screen readers announce. */
export const announcement = new Store<string>('');

/** Where a notified message belongs: its topic's page (a path of the app), and whether this server's Web Push carries it too. */
export interface NotifiedTopic {
  path: string;
  /** Subscribed on the app's own server: only its topics are registered for Web Push (web-push.ts). */
  pushed: boolean;
  open: () => void;
}

/**
 * A browser notification for a live message (as the service worker shows a pushed one:
 * notification-content.ts), a chime, and the announcement. With background notifications on,
 * the worker shows a pushed topic's message from its push, so the page does not show it
 * twice. The worker's registration shows it where there is one: Android's Chrome has no
 * other way, and a click reaches the worker even after the tab closed.
 */
export function notify(message: Message, { path, pushed, open }: NotifiedTopic): void {
  if (settings.value.sound) chime();
  announcement.set(t('notifications.announced', { topic: message.topic, text: `${message.title ?? ''} ${message.message ?? ''}` }).replace(/\s+/g, ' ').trim());
  if (!notificationsAllowed() || (pushed && backgroundPush.value.active)) return;
  const { title, options } = notificationContent(message, new URL(`${appRoot}${path}`, window.location.origin).href, new URL(`${appRoot}static/icon-192.png`, window.location.origin).href);
  serviceWorker()
    .then((registration) => {
      if (registration) return registration.showNotification(title, options);
      const notification = new Notification(title, options);
      notification.onclick = () => {
        window.focus();
        const click = safeHref(message.click);
        if (click) window.open(click, '_blank', 'noopener');
        else open();
      };
    })
    .catch(() => undefined); // permission withdrawn meanwhile: the chime and the announcement were enough
}

let audio: AudioContext | undefined;

/** Two short tones from WebAudio: no sound file to load. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.12 + 0.3);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + i * 0.12);
      oscillator.stop(now + i * 0.12 + 0.3);
    }
  } catch {
    // No audio output (or autoplay refused before any click): stay silent.
  }
}
