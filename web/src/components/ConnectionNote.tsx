import { serverConfig } from '../lib/config.js';
import type { ConnectionStatus } from '../lib/connection.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';
import { Link } from './Link.js';
import { formatClock } from '../lib/format.js';
import { t, tParts } from '../lib/i18n.js';

/** A moment as the visitor's clock shows it, with its exact time for machines. */
function Clock({ ms }: { ms: number }) {
  const at = new Date(ms);
  return <time dateTime={at.toISOString()}>{formatClock(ms)}</time>;
}

/** A topic's connection state in the list's header. */
export function ConnectionState({ status }: { status: ConnectionStatus }) {
  return <span class={`state state-${status.state}`}>{t(`connection.${status.state}`)}</span>;
}

/**
 * Why a topic receives nothing, when the server refuses it: a protected topic (401/403) asks
 * for a login (logging in reconnects every topic with the new credentials), a 429 says when
 * the next try is, since the page keeps retrying on its own.
 */
export function ConnectionNote({ topic, status }: { topic: string; status: ConnectionStatus }) {
  const user = useStore(session);
  if (status.state === 'limited')
    return (
      <p class="connection-note error" role="status">
        {tParts('connection.limitedNote', { topic, time: <Clock ms={status.retryAt ?? Date.now()} /> })}
      </p>
    );
  if (status.state !== 'denied') return null;
  return (
    <p class="connection-note error" role="status">
      {user ? (
        tParts('connection.deniedUser', { user: user.username, topic, account: <Link to="account">{t('connection.accountLink')}</Link> })
      ) : serverConfig.enable_login ? (
        tParts('connection.deniedVisitor', { topic, login: <Link to="login">{t('connection.loginLink')}</Link> })
      ) : (
        t('connection.deniedNoLogin', { topic })
      )}
    </p>
  );
}
