import { useEffect, useState } from 'preact/hooks';
import { refreshAccount } from '../lib/account.js';
import { serverConfig } from '../lib/config.js';
import { route } from '../lib/route.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';
import { connectSubscriptions, subscribe } from '../lib/subscriptions.js';
import { AccountPage } from '../components/account/AccountPage.js';
import { Link } from '../components/Link.js';
import { LoginPage } from '../components/LoginPage.js';
import { NotificationList } from '../components/NotificationList.js';
import { PublishDialog } from '../components/PublishDialog.js';
import { SettingsPage } from '../components/SettingsPage.js';
import { Sidebar } from '../components/Sidebar.js';
import { ThemeToggle } from '../components/ThemeToggle.js';

/** The web app: a header, the subscriptions on the side, the page of the current path, the publish dialog. */
export function App() {
  const current = useStore(route);
  const user = useStore(session);
  const [publishing, setPublishing] = useState(false);
  useEffect(() => {
    connectSubscriptions();
    void refreshAccount().catch(() => undefined);
  }, []);
  // Opening /{topic} subscribes to it, as ntfy's web app does.
  useEffect(() => {
    if (current.page === 'topic') void subscribe(current.topic).catch(() => undefined);
  }, [current]);
  return (
    <div class="app">
      <header class="topbar">
        <Link to="">
          <strong class="brand">🔔 Tocsin</strong>
        </Link>
        <span class="spacer" />
        <button type="button" class="primary" onClick={() => setPublishing(true)}>
          Publish
        </button>
        <ThemeToggle />
        {serverConfig.enable_login &&
          (user ? (
            <Link to="account" active={current.page === 'account'}>
              {user.username}
            </Link>
          ) : (
            <Link to="login" active={current.page === 'login'}>
              Log in
            </Link>
          ))}
      </header>
      <Sidebar current={current} />
      <main>
        {current.page === 'all' && <NotificationList topic={undefined} />}
        {current.page === 'topic' && <NotificationList topic={current.topic} />}
        {current.page === 'settings' && <SettingsPage />}
        {current.page === 'account' && <AccountPage />}
        {(current.page === 'login' || current.page === 'signup') && <LoginPage signup={current.page === 'signup'} />}
      </main>
      {publishing && <PublishDialog topic={current.page === 'topic' ? current.topic : ''} onClose={() => setPublishing(false)} />}
    </div>
  );
}
