import { useState } from 'preact/hooks';
import { account } from '../lib/account.js';
import { serverConfig } from '../lib/config.js';
import type { Message } from '../lib/message.js';
import { navigate, topicName, type Route } from '../lib/route.js';
import { useStore } from '../lib/store.js';
import { settings } from '../lib/settings.js';
import { shownMessages, subscribe, subscriptions } from '../lib/subscriptions.js';
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

/** The subscribed topics with their message counts, the field that subscribes to another, settings, and for admins the admin pages. */
export function Sidebar({ current }: { current: Route }) {
  const subs = useStore(subscriptions);
  const { minPriority } = useStore(settings);
  const role = useStore(account)?.role;
  const [topic, setTopic] = useState('');
  const [error, setError] = useState('');
  const add = (e: Event): void => {
    e.preventDefault();
    const name = topic.trim();
    if (!topicName.test(name) || serverConfig.disallowed_topics.includes(name)) return setError(t('sidebar.topicRule'));
    setError('');
    setTopic('');
    void subscribe(name).catch((err: unknown) => setError(String(err)));
    navigate(name);
  };
  return (
    <nav class="sidebar">
      <Link to="" active={current.page === 'all'}>
        {t('list.all')}
      </Link>
      <ul class="topics">
        {subs.map((s) => (
          <li>
            <Link to={s.topic} active={current.page === 'topic' && current.topic === s.topic}>
              <span class="topic-name">{s.displayName ?? s.topic}</span> <Counts messages={shownMessages(s.messages, minPriority)} />
            </Link>
          </li>
        ))}
      </ul>
      <form class="subscribe" onSubmit={add}>
        <input name="topic" placeholder={t('sidebar.topicPlaceholder')} value={topic} onInput={(e) => setTopic(e.currentTarget.value)} aria-label={t('sidebar.topicLabel')} />
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
