import { useEffect } from 'preact/hooks';
import { ThemeToggle } from '../components/ThemeToggle.js';
import { api } from '../lib/api.js';
import { appRoot } from '../lib/config.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';
import { connectFeed, feed } from './feed.js';
import { LoginForm } from './LoginForm.js';
import { Overview } from './Overview.js';

/** What the page shows instead of the figures, by the feed's status. */
const notices = {
  connecting: 'Connecting to the server…',
  off: 'The dashboard is off on this server: set enable-dashboard: true in server.yml.',
  error: 'The server answered something unexpected; retrying.',
};

/** The live operations dashboard (GET /dashboard): the server's figures, one frame a second from GET /v1/dashboard/ws. */
export function Dashboard() {
  const { status, frames } = useStore(feed);
  const user = useStore(session);
  useEffect(connectFeed, []);
  // The session is the app's too: logging out here logs out there, and drops the token.
  const logOut = (): void => {
    void api('DELETE', '/v1/account/token')
      .catch(() => undefined)
      .finally(() => {
        session.set(null);
        connectFeed();
      });
  };
  return (
    <div class="dashboard">
      <header class="topbar">
        <a href={appRoot}>
          <strong class="brand">🔔 Tocsin</strong>
        </a>
        <span class="muted">operations</span>
        <span class="spacer" />
        <span class={`status status-${status}`} role="status">
          {status === 'live' ? 'live' : status}
        </span>
        <ThemeToggle />
        {user && (
          <button type="button" onClick={logOut}>
            Log out {user.username}
          </button>
        )}
      </header>
      <main class="dashboard-main">
        {status === 'login' && <LoginForm onLogin={connectFeed} />}
        {status === 'forbidden' && <p class="panel narrow">{user?.username ?? 'This user'} is no admin: the dashboard is for admins. Log out and log in as one.</p>}
        {(status === 'connecting' || status === 'off' || status === 'error') && frames.length === 0 && <p class="empty">{notices[status]}</p>}
        {frames.length > 0 && (status === 'live' || status === 'connecting') && <Overview frames={frames} />}
      </main>
    </div>
  );
}
