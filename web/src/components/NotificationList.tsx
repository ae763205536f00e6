import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../lib/store.js';
import { settings } from '../lib/settings.js';
import { labelOf, shortUrl, subscriptionKey, topicUrlOf } from '../lib/servers.js';
import { clearMessages, connectionStates, markTopicRead, setGap, shownMessages, subscriptions, unsubscribe } from '../lib/subscriptions.js';
import { sendTestNotification } from '../lib/test-notification.js';
import { navigate } from '../lib/route.js';
import { ConnectionNote, ConnectionState } from './ConnectionNote.js';
import { Link } from './Link.js';
import { TopicSettings } from './TopicSettings.js';
import { NotificationCard } from './NotificationCard.js';
import { t, tParts } from '../lib/i18n.js';

/** The notifications of one subscription (`topic` its subscriptionKey), or of every one (topic undefined), newest first. */
export function NotificationList({ topic }: { topic: string | undefined }) {
  const subs = useStore(subscriptions);
  const states = useStore(connectionStates);
  const { minPriority } = useStore(settings);
  const shown = subs.filter((s) => topic === undefined || subscriptionKey(s) === topic);
  const sub = topic === undefined ? undefined : shown[0];
  const all = shown.flatMap((s) => s.messages);
  // In the list of every topic each card names its topic, with its server when another (labelOf).
  const labels = new Map(topic === undefined ? shown.flatMap((s) => s.messages.map((m) => [m, labelOf(s)] as const)) : []);
  const messages = shownMessages(all, minPriority)
    // Newest first; within a second (times are whole seconds) the later received first.
    .reverse()
    .sort((a, b) => b.time - a.time);
  const status = topic === undefined ? undefined : states[topic];
  const [testError, setTestError] = useState('');
  // A topic's page on screen is read: now, on each new message, and when the tab comes back.
  useEffect(() => {
    if (topic === undefined) return;
    const read = (): void => {
      if (document.visibilityState === 'visible') markTopicRead(topic);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [topic, subs]);
  return (
    <section class="list">
      <div class="list-header">
        <h2>{topic === undefined ? t('list.all') : (sub?.displayName ?? sub?.topic ?? topic)}</h2>
        {sub?.baseUrl && <span class="muted">{shortUrl(sub.baseUrl)}</span>}
        {status && <ConnectionState status={status} />}
        {sub && topic && (
          <span class="list-tools">
            <button type="button" onClick={() => void sendTestNotification(sub).then((error) => setTestError(error ?? ''), (err: unknown) => setTestError(String(err)))}>
              {t('list.sendTest')}
            </button>
            <button type="button" onClick={() => clearMessages(topic)}>
              {t('list.clear')}
            </button>
            <button
              type="button"
              onClick={() => {
                void unsubscribe(topic);
                navigate('');
              }}
            >
              {t('list.unsubscribe')}
            </button>
          </span>
        )}
      </div>
      {sub && topic !== undefined && <TopicSettings key={topic} sub={sub} />}
      {sub && status && <ConnectionNote where={sub} status={status} />}
      {testError && (
        <p class="error" role="status">
          {t('list.testFailed', { error: testError })}
        </p>
      )}
      {shown
        .filter((s) => s.gap)
        .map((s) => (
          <p key={`gap-${subscriptionKey(s)}`} class="gap-note" role="status">
            {topic === undefined ? t('list.gapOfTopic', { topic: s.topic }) : t('list.gap')}{' '}
            <button type="button" onClick={() => setGap(subscriptionKey(s), false)}>
              {t('list.dismiss')}
            </button>
          </p>
        ))}
      {all.length > messages.length && (
        <p class="muted hidden-note">
          {tParts('list.hidden', { count: all.length - messages.length, priority: minPriority, settings: <Link to="settings">{t('list.settingsLink')}</Link> })}
        </p>
      )}
      {messages.length === 0 ? (
        <p class="empty muted">
          {sub ? (
            tParts('list.emptyTopic', { command: <code>curl -d "Hi" {topicUrlOf(sub)}</code> })
          ) : subs.length === 0 ? (
            t('list.emptyNoSubscriptions')
          ) : (
            t('list.empty')
          )}
        </p>
      ) : (
        messages.map((m) => <NotificationCard key={m.id} message={m} topic={labels.get(m)} />)
      )}
    </section>
  );
}
