import { useState } from 'preact/hooks';
import { askForNotifications, notificationSupport, type NotificationSupport } from '../lib/notifier.js';
import { backgroundPush } from '../lib/service-worker.js';
import { settings } from '../lib/settings.js';
import { useStore } from '../lib/store.js';
import { webPushOffered } from '../lib/web-push.js';
import { t, type MessageKey } from '../lib/i18n.js';

/** What stands between the visitor and notifications, in words, as ntfy's web app says it. */
const obstacles: Partial<Record<NotificationSupport, MessageKey>> = {
  'ios-install': 'notifications.iosInstall',
  insecure: 'notifications.insecure',
  unsupported: 'notifications.unsupported',
  denied: 'notifications.denied',
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
      <legend>{t('notifications.legend')}</legend>
      {obstacle ? (
        <p class="error" role="status">
          {t(obstacle)}
        </p>
      ) : (
        <p>
          {support === 'granted' ? t('notifications.browserOn') : t('notifications.browserOff')}{' '}
          {support === 'ask' && (
            <button type="button" onClick={() => void askForNotifications().then(() => setSupport(notificationSupport()))}>
              {t('notifications.allow')}
            </button>
          )}
        </p>
      )}
      {!obstacle && webPushOffered() && (
        <>
          <label class="inline">
            <input type="checkbox" name="background-notifications" checked={current.backgroundNotifications === true} onChange={(e) => void setBackground(e.currentTarget.checked)} />{' '}
            {t('notifications.background')}
          </label>
          {push.error && <p class="error">{t('notifications.backgroundFailed', { error: push.error })}</p>}
          {push.active && <p class="note">{t('notifications.backgroundOn')}</p>}
        </>
      )}
    </fieldset>
  );
}
