import { useState } from 'preact/hooks';
import { account } from '../lib/account.js';
import { apiBase, serverConfig } from '../lib/config.js';
import type { Message } from '../lib/message.js';
import { navigate, topicName, type Route } from '../lib/route.js';
import { parseBaseUrl, pathOf, serversInUse, shortUrl, subscriptionKey } from '../lib/servers.js';
import { useStore } from '../lib/store.js';
import { settings } from '../lib/settings.js';
import { routeKey, shownMessages, subscribe, subscriptions } from '../lib/subscriptions.js';
import { Link } from './Link.js';
import { t } from '../lib/i18n.js';

/** A topic's messages shown, and how many of them are unread (a badge, only when some are). */
function Counts({ messages }: { messages: readonly Message[] }) {
  const unread = messages.filter((m) => m.unread).length;
  return (
    <>
      <span class="count">{messages.length}</span>
      {unread > 0 && <span class="unread-badge" aria-label={t('sidebar.unread', { count: unread })}>{unread}</span>}
    </>
  );
}

/**
 * The subscribed topics with their message counts (another server's with its address under
 * the name), the form that subscribes to another topic, on this server or, as ntfy's "use
 * another server", on one the visitor names, settings, and for admins the admin pages.
 */
export function Sidebar({ current }: { current: Route }) {
  const subs = useStore(subscriptions);
  const { minPriority } = useStore(settings);
  const role = useStore(account)?.role;
  const [topic, setTopic] = useState('');
  const [elsewhere, setElsewhere] = useState(false);
  const [server, setServer] = useState('');
  const [error, setError] = useState('');
  const selected = routeKey(current);
  const add = (e: Event): void => {
    e.preventDefault();
    const name = topic.trim();
    // The disallowed names are this server's; another server says for itself.
    if (!topicName.test(name) || (!elsewhere && serverConfig.disallowed_topics.includes(name))) return setError(t('sidebar.topicRule'));
    const parsed = elsewhere ? parseBaseUrl(server) : undefined;
    if (parsed && 'problem' in parsed) return setError(t(`servers.${parsed.problem}Url`));
    // The app's own server named as another is the app's own: one subscription, one key.
    const baseUrl = parsed?.url === apiBase ? undefined : parsed?.url;
    setError('');
    setTopic('');
    void subscribe(name, baseUrl).catch((err: unknown) => setError(String(err)));
    navigate(pathOf({ baseUrl, topic: name }));
  };
  return (
    <nav class="sidebar">
      <Link to="" active={current.page === 'all'}>
        {t('list.all')}
      </Link>
      <ul class="topics">
        {subs.map((s) => (
          <li>
            <Link to={pathOf(s)} active={selected === subscriptionKey(s)}>
              <span class="topic-name">
                {s.displayName ?? s.topic}
                {s.baseUrl && <span class="topic-server">{shortUrl(s.baseUrl)}</span>}
              </span>{' '}
              <Counts messages={shownMessages(s.messages, minPriority)} />
            </Link>
          </li>
        ))}
      </ul>
      <form class="subscribe" onSubmit={add}>
        <input name="topic" placeholder={t('sidebar.topicPlaceholder')} value={topic} onInput={(e) => setTopic(e.currentTarget.value)} aria-label={t('sidebar.topicLabel')} />
        <label class="inline">
          <input type="checkbox" name="elsewhere" checked={elsewhere} onChange={(e) => setElsewhere(e.currentTarget.checked)} /> {t('servers.useAnother')}
        </label>
        {elsewhere && (
          <>
            <input name="server" inputMode="url" list="servers-in-use" maxLength={256} placeholder="https://ntfy.sh" value={server} onInput={(e) => setServer(e.currentTarget.value)} aria-label={t('servers.baseUrl')} />
            <datalist id="servers-in-use">
              {serversInUse(subs).map((url) => (
                <option value={url} />
              ))}
            </datalist>
          </>
        )}
        <button type="submit">{t('sidebar.subscribe')}</button>
        {error && <p class="error">{error}</p>}
      </form>
      <Link to="settings" active={current.page === 'settings'}>
        {t('settings.heading')}
      </Link>
      {role === 'admin' && (
        <Link to="account/admin" active={current.page === 'admin'}>
          {t('admin.link')}
        </Link>
      )}
    </nav>
  );
}
