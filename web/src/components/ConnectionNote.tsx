import { serverConfig } from '../lib/config.js';
import type { ConnectionStatus } from '../lib/connection.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';
import { Link } from './Link.js';

const stateNames = { connecting: 'connecting…', live: 'live', retrying: 'reconnecting…', denied: 'no access', limited: 'rate-limited' };

/** A moment as the visitor's clock shows it, with its exact time for machines. */
function Clock({ ms }: { ms: number }) {
  const at = new Date(ms);
  return <time dateTime={at.toISOString()}>{at.toLocaleTimeString()}</time>;
}

/** A topic's connection state in the list's header. */
export function ConnectionState({ status }: { status: ConnectionStatus }) {
  return <span class={`state state-${status.state}`}>{stateNames[status.state]}</span>;
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
        The server is limiting requests from this browser (too many requests), so {topic} is not receiving notifications. Tocsin tries again at <Clock ms={status.retryAt ?? Date.now()} />, waiting
        longer after each refusal.
      </p>
    );
  if (status.state !== 'denied') return null;
  return (
    <p class="connection-note error" role="status">
      {user ? (
        <>
          Your account {user.username} may not read {topic}. Ask the server's admin for access, or log in as another user from your <Link to="account">account</Link> page.
        </>
      ) : serverConfig.enable_login ? (
        <>
          {topic} is protected: <Link to="login">log in</Link> with an account that may read it, and it connects again.
        </>
      ) : (
        <>{topic} is protected, and this server has no login in the web app: it cannot be read here.</>
      )}
    </p>
  );
}
