import { api } from '../lib/api.js';
import { session } from '../lib/session.js';
import { defaultHistorySize, historySizes } from '../lib/history.js';
import { settings, type Settings } from '../lib/settings.js';
import { useStore } from '../lib/store.js';
import { NotificationsSection } from './NotificationsSection.js';
import { languages, t } from '../lib/i18n.js';

const deleteAfterOptions = (): [number, string][] => [
  [0, t('settings.deleteNever')],
  [3 * 3600, t('settings.deleteAfterHours', { count: 3 })],
  [86_400, t('settings.deleteAfterDay')],
  [7 * 86_400, t('settings.deleteAfterWeek')],
  [30 * 86_400, t('settings.deleteAfterMonth')],
];

/**
 * The app's settings, kept in this browser; a logged-in user's notification settings go
 * to the account too (PATCH /v1/account/settings, as ntfy's web app does).
 */
export function SettingsPage() {
  const current = useStore(settings);
  const change = (patch: Partial<Settings>): void => {
    const next = { ...settings.value, ...patch };
    settings.set(next);
    // The account keeps ntfy's notification settings; the theme and the history size are this browser's.
    if (session.value && ('minPriority' in patch || 'deleteAfter' in patch || 'sound' in patch)) {
      const notification = { min_priority: next.minPriority, delete_after: next.deleteAfter, sound: next.sound ? 'ding' : 'none' };
      void api('PATCH', '/v1/account/settings', { body: { notification } }).catch(() => undefined);
    }
  };
  return (
    <form class="panel settings" aria-label={t('settings.heading')} onSubmit={(e) => e.preventDefault()}>
      <h2>{t('settings.heading')}</h2>
      <label>
        {t('settings.minPriority')}
        <select name="min-priority" value={current.minPriority} onChange={(e) => change({ minPriority: Number(e.currentTarget.value) })}>
          <option value={1}>{t('settings.anyPriority')}</option>
          {([2, 3, 4, 5] as const).map((value) => (
            <option value={value}>{t('settings.priorityOption', { value, name: t(`priority.${value}`) })}</option>
          ))}
        </select>
      </label>
      <label>
        {t('settings.deleteAfter')}
        <select name="delete-after" value={current.deleteAfter} onChange={(e) => change({ deleteAfter: Number(e.currentTarget.value) })}>
          {deleteAfterOptions().map(([seconds, name]) => (
            <option value={seconds}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        {t('settings.history')}
        <select name="history-size" value={current.historySize ?? defaultHistorySize} onChange={(e) => change({ historySize: Number(e.currentTarget.value) })}>
          {historySizes.map((size) => (
            <option value={size}>{t('settings.historyOption', { size: size / 500_000 })}</option>
          ))}
        </select>
      </label>
      <label class="inline">
        <input type="checkbox" name="sound" checked={current.sound} onChange={(e) => change({ sound: e.currentTarget.checked })} /> {t('settings.sound')}
      </label>
      <label>
        {t('settings.theme')}
        <select name="theme" value={current.theme} onChange={(e) => change({ theme: e.currentTarget.value as Settings['theme'] })}>
          <option value="system">{t('settings.themeSystem')}</option>
          <option value="light">{t('settings.themeLight')}</option>
          <option value="dark">{t('settings.themeDark')}</option>
        </select>
      </label>
      <label>
        {t('settings.language')}
        <select name="language" value={current.language ?? ''} onChange={(e) => change({ language: e.currentTarget.value || undefined })}>
          <option value="">{t('settings.languageBrowser')}</option>
          {Object.entries(languages).map(([code, name]) => (
            <option value={code} lang={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <NotificationsSection />
    </form>
  );
}
