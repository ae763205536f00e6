import { useState } from 'preact/hooks';
import { serverConfig } from '../lib/config.js';
import type { ConnectionStatus } from '../lib/connection.js';
import { serverUsers } from '../lib/server-users.js';
import { shortUrl, type Located } from '../lib/servers.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';
import { Link } from './Link.js';
import { ServerLoginDialog } from './ServerLoginDialog.js';
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
 * Another server refused a topic: a button opens the login for that server (ntfy's subscribe
 * dialog's login page), whose credentials are saved for it and reconnect its topics.
 */
function OtherServerDenied({ where: { baseUrl, topic } }: { where: Required<Located> }) {
  const user = useStore(serverUsers).find((u) => u.baseUrl === baseUrl);
  const [loggingIn, setLoggingIn] = useState(false);
  const server = shortUrl(baseUrl);
  const login = (
    <button type="button" onClick={() => setLoggingIn(true)}>
      {t('servers.logInTo', { server })}
    </button>
  );
  return (
    <>
      <p class="connection-note error" role="status">
        {user?.username ? tParts('servers.deniedUser', { user: user.username, server, topic, login }) : tParts('servers.denied', { server, topic, login })}
      </p>
      {loggingIn && <ServerLoginDialog where={{ baseUrl, topic }} onClose={() => setLoggingIn(false)} />}
    </>
  );
}

/**
 * Why a topic receives nothing, when the server refuses it: a protected topic (401/403) asks
 * for a login (logging in reconnects every topic with the new credentials), a 429 says when
 * the next try is, since the page keeps retrying on its own.
 */
export function ConnectionNote({ where, status }: { where: Located; status: ConnectionStatus }) {
  const user = useStore(session);
  const { topic } = where;
  if (status.state === 'limited')
    return (
      <p class="connection-note error" role="status">
        {tParts('connection.limitedNote', { topic, time: <Clock ms={status.retryAt ?? Date.now()} /> })}
      </p>
    );
  if (status.state !== 'denied') return null;
  if (where.baseUrl) return <OtherServerDenied where={{ baseUrl: where.baseUrl, topic }} />;
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
