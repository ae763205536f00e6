import { useEffect, useState } from 'preact/hooks';
import { language, t } from '../lib/i18n.js';
import { refreshAccount } from '../lib/account.js';
import { serverConfig } from '../lib/config.js';
import { announcement } from '../lib/notifier.js';
import { navigate, openPages, route } from '../lib/route.js';
import { publishTarget, subscribeToRoute } from '../lib/route-topic.js';
import { session } from '../lib/session.js';
import { keepSessionAlive } from '../lib/session-renewal.js';
import { registerServiceWorker } from '../lib/service-worker.js';
import { useStore } from '../lib/store.js';
import { settings } from '../lib/settings.js';
import { connectSubscriptions, routeKey, subscriptions, unreadCount } from '../lib/subscriptions.js';
import { startWebPush } from '../lib/web-push.js';
import { AccountPage } from '../components/account/AccountPage.js';
import { AdminRoute } from '../components/AdminRoute.js';
import { Link } from '../components/Link.js';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from '../components/LinkPages.js';
import { LoginPage } from '../components/LoginPage.js';
import { NotificationList } from '../components/NotificationList.js';
import { PublishDialog } from '../components/PublishDialog.js';
import { SettingsPage } from '../components/SettingsPage.js';
import { ServersSection } from '../components/ServersSection.js';
import { Sidebar } from '../components/Sidebar.js';
import { ThemeToggle } from '../components/ThemeToggle.js';

/** The web app: a header, the subscriptions on the side, the page of the current path, the publish dialog. */
export function App() {
  const current = useStore(route);
  const user = useStore(session);
  const [publishing, setPublishing] = useState(false);
  const announced = useStore(announcement);
  // Every component re-renders with the app, so a language chosen shows at once, with no reload.
  useStore(language);
  const unread = unreadCount(useStore(subscriptions), useStore(settings).minPriority);
  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) Tocsin` : 'Tocsin';
  }, [unread]);
  // require-login (ntfy 2.15): a visitor who is not logged in sees the login page and the pages of mailed links only.
  const locked = serverConfig.require_login && !user;
  const shown = locked && !openPages.has(current.page) ? 'login' : current.page;
  useEffect(() => {
    if (shown !== current.page) navigate('login', true);
    // A proxy vouched for the visitor (after require-login sent them here at start): no login page.
    else if (user?.proxied && current.page === 'login') navigate('', true);
  }, [shown, current.page, user]);
  useEffect(() => {
    registerServiceWorker();
    connectSubscriptions();
    keepSessionAlive();
    startWebPush();
    void refreshAccount().catch(() => undefined);
  }, []);
  // Opening /{topic} (or /{server}/{topic}) subscribes to it, as ntfy's web app does.
  useEffect(() => {
    void subscribeToRoute(current).catch(() => undefined);
  }, [current]);
  return (
    <div class="app">
      <header class="topbar">
        <h1 class="brand">
          <Link to="">🔔 Tocsin</Link>
        </h1>
        <span class="spacer" />
        {!locked && (
          <button type="button" class="primary" onClick={() => setPublishing(true)}>
            {t('app.publish')}
          </button>
        )}
        <ThemeToggle />
        {/* A user the proxy logged in has an account even where enable-login offers no login. */}
        {user ? (
          <Link to="account" active={current.page === 'account'}>
            {user.username}
          </Link>
        ) : (
          serverConfig.enable_login && (
            <Link to="login" active={current.page === 'login'}>
              {t('auth.logIn')}
            </Link>
          )
        )}
      </header>
      {!locked && <Sidebar current={current} />}
      <main>
        {shown === 'all' && <NotificationList topic={undefined} />}
        {current.page === 'topic' && shown === 'topic' && <NotificationList topic={routeKey(current)} />}
        {shown === 'settings' && <SettingsPage />}
        {shown === 'settings' && <ServersSection />}
        {shown === 'account' && <AccountPage />}
        {shown === 'admin' && <AdminRoute />}
        {(shown === 'login' || shown === 'signup') && <LoginPage signup={shown === 'signup'} />}
        {shown === 'forgot-password' && <ForgotPasswordPage />}
        {current.page === 'verify-email' && <VerifyEmailPage token={current.token} />}
        {current.page === 'reset-password' && <ResetPasswordPage token={current.token} />}
      </main>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announced}
      </p>
      {publishing && <PublishDialog target={publishTarget(current)} onClose={() => setPublishing(false)} />}
    </div>
  );
}
