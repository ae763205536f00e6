import { useState } from 'preact/hooks';
import { setDisplayName, setMuted, type Subscription } from '../lib/subscriptions.js';

/** A topic's own settings, folded under its list's header: the name shown for it, and mute. */
export function TopicSettings({ sub }: { sub: Subscription }) {
  const [name, setName] = useState(sub.displayName ?? '');
  const [error, setError] = useState('');
  const save = (e: Event): void => {
    e.preventDefault();
    setError('');
    void setDisplayName(sub.topic, name).catch((err: unknown) => setError(`Saved in this browser, not in your account: ${String(err)}`));
  };
  return (
    <details class="topic-settings">
      <summary>Topic settings</summary>
      <form onSubmit={save}>
        <label>
          Display name
          <input name="display-name" value={name} placeholder={sub.topic} maxLength={64} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Save name</button>
        <label class="inline">
          <input type="checkbox" name="muted" checked={sub.muted === true} onChange={(e) => setMuted(sub.topic, e.currentTarget.checked)} /> Mute: no browser notifications for this topic
        </label>
        {error && <p class="error">{error}</p>}
      </form>
    </details>
  );
}
