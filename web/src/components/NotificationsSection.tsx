import { useState } from 'preact/hooks';
import { askForNotifications, notificationSupport, type NotificationSupport } from '../lib/notifier.js';
import { backgroundPush } from '../lib/service-worker.js';
import { settings } from '../lib/settings.js';
import { useStore } from '../lib/store.js';
import { webPushOffered } from '../lib/web-push.js';

/** What stands between the visitor and notifications, in words, as ntfy's web app says it. */
const obstacles: Partial<Record<NotificationSupport, string>> = {
  'ios-install': 'On iPhone and iPad, notifications need the app on the Home Screen: tap Share, then "Add to Home Screen", and open Tocsin from there.',
  insecure: 'Notifications are only possible over HTTPS: this page came over plain HTTP, where browsers offer neither notifications nor background delivery. Open it at an https:// address (or on localhost).',
  unsupported: 'This browser cannot show notifications.',
  denied: 'Notifications are blocked for this site. Allow them in the browser\'s site settings, then reload the page.',
};

/**
 * The settings' notification part, the permission flow: why notifications are impossible
 * here (plain HTTP, iOS outside the Home Screen, blocked), a button to ask for them, and
 * background notifications (Web Push: messages shown with no tab open), per browser.
 */
export function NotificationsSection() {
  const [support, setSupport] = useState(notificationSupport());
  const current = useStore(settings);
  const push = useStore(backgroundPush);
  const obstacle = obstacles[support];
  const setBackground = async (on: boolean): Promise<void> => {
    if (on && support !== 'granted') {
      await askForNotifications();
      setSupport(notificationSupport());
      if (notificationSupport() !== 'granted') return;
    }
    settings.set({ ...settings.value, backgroundNotifications: on });
  };
  return (
    <fieldset class="notifications">
      <legend>Notifications</legend>
      {obstacle ? (
        <p class="error" role="status">
          {obstacle}
        </p>
      ) : (
        <p>
          Browser notifications: {support === 'granted' ? 'on' : 'off'}{' '}
          {support === 'ask' && (
            <button type="button" onClick={() => void askForNotifications().then(() => setSupport(notificationSupport()))}>
              Allow notifications
            </button>
          )}
        </p>
      )}
      {!obstacle && webPushOffered() && (
        <>
          <label class="inline">
            <input type="checkbox" name="background-notifications" checked={current.backgroundNotifications === true} onChange={(e) => void setBackground(e.currentTarget.checked)} /> Background notifications: receive
            messages while Tocsin is closed (Web Push)
          </label>
          {push.error && <p class="error">Background notifications could not be turned on: {push.error}</p>}
          {push.active && <p class="note">Background notifications are on for this browser.</p>}
        </>
      )}
    </fieldset>
  );
}
