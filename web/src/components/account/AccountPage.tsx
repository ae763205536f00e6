import { useEffect } from 'preact/hooks';
import { account, logOut, refreshAccount } from '../../lib/account.js';
import { serverConfig } from '../../lib/config.js';
import { navigate } from '../../lib/route.js';
import { session } from '../../lib/session.js';
import { useStore } from '../../lib/store.js';
import { DeleteAccountSection } from './DeleteAccountSection.js';
import { EmailsSection } from './EmailsSection.js';
import { PasswordSection } from './PasswordSection.js';
import { ReservationsSection } from './ReservationsSection.js';
import { TokensSection } from './TokensSection.js';
import { t } from '../../lib/i18n.js';

/** The account page: who is logged in, password, tokens, reservations, deleting the account. */
export function AccountPage() {
  const user = useStore(session);
  const current = useStore(account);
  useEffect(() => {
    if (!user) navigate('login');
    else void refreshAccount();
  }, [user]);
  if (!user || !current) return <p class="empty muted">{t('account.loading')}</p>;
  return (
    <div class="account">
      <div class="panel">
        <h2>
          {current.username} <span class="muted">({current.role})</span>
        </h2>
        <p class="muted">{t('account.synced')}</p>
        <button
          type="button"
          onClick={() => {
            void logOut().finally(() => navigate(''));
          }}
        >
          {t('account.logOut')}
        </button>
      </div>
      {/* A user the proxy logged in knows no password here (a random one was made for them). */}
      {!user.proxied && <PasswordSection />}
      {serverConfig.enable_emails && <EmailsSection emails={current.emails} />}
      <TokensSection tokens={current.tokens} />
      {serverConfig.enable_reservations && <ReservationsSection account={current} />}
      {!user.proxied && <DeleteAccountSection />}
    </div>
  );
}
