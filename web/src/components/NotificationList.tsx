import { useEffect, useState } from 'preact/hooks';
import { topicUrl } from '../lib/config.js';
import { useStore } from '../lib/store.js';
import { settings } from '../lib/settings.js';
import { clearMessages, connectionStates, markTopicRead, setGap, shownMessages, subscriptions, unsubscribe } from '../lib/subscriptions.js';
import { sendTestNotification } from '../lib/test-notification.js';
import { navigate } from '../lib/route.js';
import { ConnectionNote, ConnectionState } from './ConnectionNote.js';
import { Link } from './Link.js';
import { TopicSettings } from './TopicSettings.js';
import { NotificationCard } from './NotificationCard.js';

/** The notifications of one topic, or of every subscription (topic undefined), newest first. */
export function NotificationList({ topic }: { topic: string | undefined }) {
  const subs = useStore(subscriptions);
  const states = useStore(connectionStates);
  const { minPriority } = useStore(settings);
  const shown = subs.filter((s) => topic === undefined || s.topic === topic);
  const all = shown.flatMap((s) => s.messages);
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
        <h2>{topic === undefined ? 'All notifications' : (shown[0]?.displayName ?? topic)}</h2>
        {status && <ConnectionState status={status} />}
        {topic && (
          <span class="list-tools">
            <button type="button" onClick={() => void sendTestNotification(topic).then((error) => setTestError(error ?? ''), (err: unknown) => setTestError(String(err)))}>
              Send test notification
            </button>
            <button type="button" onClick={() => clearMessages(topic)}>
              Clear
            </button>
            <button
              type="button"
              onClick={() => {
                void unsubscribe(topic);
                navigate('');
              }}
            >
              Unsubscribe
            </button>
          </span>
        )}
      </div>
      {shown[0] && topic !== undefined && <TopicSettings key={topic} sub={shown[0]} />}
      {topic !== undefined && status && <ConnectionNote topic={topic} status={status} />}
      {testError && (
        <p class="error" role="status">
          The test notification was not sent: {testError}
        </p>
      )}
      {shown
        .filter((s) => s.gap)
        .map((s) => (
          <p key={`gap-${s.topic}`} class="gap-note" role="status">
            Some notifications{topic === undefined ? ` of ${s.topic}` : ''} could not be recovered: the server no longer held them when this page reconnected.{' '}
            <button type="button" onClick={() => setGap(s.topic, false)}>
              Dismiss
            </button>
          </p>
        ))}
      {all.length > messages.length && (
        <p class="muted hidden-note">
          {all.length - messages.length} below priority {minPriority} hidden by your <Link to="settings">settings</Link>.
        </p>
      )}
      {messages.length === 0 ? (
        <p class="empty muted">
          {topic ? (
            <>
              No notifications yet. Publish one with <code>curl -d "Hi" {topicUrl(topic)}</code>
            </>
          ) : subs.length === 0 ? (
            'Subscribe to a topic to see its notifications here.'
          ) : (
            'No notifications yet.'
          )}
        </p>
      ) : (
        messages.map((m) => <NotificationCard key={m.id} message={m} showTopic={topic === undefined} />)
      )}
    </section>
  );
}
