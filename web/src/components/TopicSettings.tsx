import { useState } from 'preact/hooks';
import { subscriptionKey } from '../lib/servers.js';
import { setDisplayName, setMuted, type Subscription } from '../lib/subscriptions.js';
import { t } from '../lib/i18n.js';

/** A topic's own settings, folded under its list's header: the name shown for it, and mute. */
export function TopicSettings({ sub }: { sub: Subscription }) {
  const [name, setName] = useState(sub.displayName ?? '');
  const [error, setError] = useState('');
  const save = (e: Event): void => {
    e.preventDefault();
    setError('');
    void setDisplayName(subscriptionKey(sub), name).catch((err: unknown) => setError(t('topicSettings.notSynced', { error: String(err) })));
  };
  return (
    <details class="topic-settings">
      <summary>{t('topicSettings.summary')}</summary>
      <form onSubmit={save}>
        <label>
          {t('topicSettings.displayName')}
          <input name="display-name" value={name} placeholder={sub.topic} maxLength={64} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('topicSettings.save')}</button>
        <label class="inline">
          <input type="checkbox" name="muted" checked={sub.muted === true} onChange={(e) => setMuted(subscriptionKey(sub), e.currentTarget.checked)} /> {t('topicSettings.mute')}
        </label>
        {error && <p class="error">{error}</p>}
      </form>
    </details>
  );
}
