import { useState } from 'preact/hooks';
import { logInToServer, NotAuthorized } from '../lib/server-users.js';
import { shortUrl, type Located } from '../lib/servers.js';
import { useModal } from './useModal.js';
import { t } from '../lib/i18n.js';

/**
 * The login for another server's protected topic (ntfy's subscribe dialog's login page): a
 * user name and password, or an access token with no user name. Saved for that server only
 * once it has accepted them for the topic; its topics then reconnect with them.
 */
export function ServerLoginDialog({ where, onClose }: { where: Required<Located>; onClose: () => void }) {
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const dialog = useModal<HTMLDivElement>(onClose);
  const server = shortUrl(where.baseUrl);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await logInToServer(where, username, secret);
      onClose();
    } catch (err) {
      setError(err instanceof NotAuthorized ? t('servers.notAuthorized', { server, topic: where.topic }) : t('servers.unreachable', { server, error: String(err) }));
      setBusy(false);
    }
  };
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} class="dialog narrow" role="dialog" aria-modal="true" aria-labelledby="server-login-heading">
        <form onSubmit={(e) => void submit(e)} aria-labelledby="server-login-heading">
          <h2 id="server-login-heading">{t('servers.loginHeading', { server })}</h2>
          <p>{t('servers.loginDescription', { topic: where.topic })}</p>
          <label>
            {t('auth.username')} <input name="server-username" autocomplete="username" maxLength={256} value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
          </label>
          <label>
            {t('servers.secret')} <input name="server-secret" type="password" autocomplete="current-password" required maxLength={4096} value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
          </label>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="dialog-buttons">
            <button type="button" onClick={onClose}>
              {t('publish.cancel')}
            </button>
            <button type="submit" class="primary" disabled={busy}>
              {t('auth.logIn')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
