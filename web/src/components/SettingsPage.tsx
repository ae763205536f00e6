import { api } from '../lib/api.js';
import { session } from '../lib/session.js';
import { defaultHistorySize, historySizes } from '../lib/history.js';
import { settings, type Settings } from '../lib/settings.js';
import { useStore } from '../lib/store.js';
import { NotificationsSection } from './NotificationsSection.js';

const deleteAfterOptions = [
  [0, 'never'],
  [3 * 3600, 'after 3 hours'],
  [86_400, 'after a day'],
  [7 * 86_400, 'after a week'],
  [30 * 86_400, 'after a month'],
] as const;

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
    <form class="panel settings" aria-label="Settings" onSubmit={(e) => e.preventDefault()}>
      <h2>Settings</h2>
      <label>
        Show notifications of at least priority
        <select name="min-priority" value={current.minPriority} onChange={(e) => change({ minPriority: Number(e.currentTarget.value) })}>
          <option value={1}>any (1, min)</option>
          <option value={2}>2 (low)</option>
          <option value={3}>3 (default)</option>
          <option value={4}>4 (high)</option>
          <option value={5}>5 (urgent)</option>
        </select>
      </label>
      <label>
        Delete notifications
        <select name="delete-after" value={current.deleteAfter} onChange={(e) => change({ deleteAfter: Number(e.currentTarget.value) })}>
          {deleteAfterOptions.map(([seconds, name]) => (
            <option value={seconds}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        Keep history in this browser up to
        <select name="history-size" value={current.historySize ?? defaultHistorySize} onChange={(e) => change({ historySize: Number(e.currentTarget.value) })}>
          {historySizes.map((size) => (
            <option value={size}>{size / 500_000} MB, the oldest dropped first</option>
          ))}
        </select>
      </label>
      <label class="inline">
        <input type="checkbox" name="sound" checked={current.sound} onChange={(e) => change({ sound: e.currentTarget.checked })} /> Play a sound for new notifications
      </label>
      <label>
        Theme
        <select name="theme" value={current.theme} onChange={(e) => change({ theme: e.currentTarget.value as Settings['theme'] })}>
          <option value="system">as the system</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
      </label>
      <NotificationsSection />
    </form>
  );
}
