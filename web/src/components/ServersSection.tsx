import { useState } from 'preact/hooks';
import { apiBase } from '../lib/config.js';
import { removeServerUser, saveServerUser, serverUsers } from '../lib/server-users.js';
import { parseBaseUrl, serversInUse, shortUrl } from '../lib/servers.js';
import { useStore } from '../lib/store.js';
import { subscriptions } from '../lib/subscriptions.js';
import { t } from '../lib/i18n.js';

/**
 * The settings' other servers (ntfy's "Manage users"): the servers the subscriptions are on,
 * and the credentials kept for each, which go to that server only. The app's own server is
 * not among them: its credentials are the login.
 */
export function ServersSection() {
  const inUse = serversInUse(useStore(subscriptions));
  const users = useStore(serverUsers);
  const [baseUrl, setBaseUrl] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const add = (e: Event): void => {
    e.preventDefault();
    const parsed = parseBaseUrl(baseUrl);
    if ('problem' in parsed) return setError(t(`servers.${parsed.problem}Url`));
    if (parsed.url === apiBase) return setError(t('servers.ownServer'));
    saveServerUser({ baseUrl: parsed.url, username: username.trim(), secret });
    setError('');
    setBaseUrl('');
    setUsername('');
    setSecret('');
  };
  return (
    <section class="panel servers" aria-labelledby="servers-heading">
      <h2 id="servers-heading">{t('servers.heading')}</h2>
      {inUse.length === 0 ? (
        <p class="muted">{t('servers.noneInUse')}</p>
      ) : (
        <>
          <h3>{t('servers.inUse')}</h3>
          <ul class="servers-in-use">
            {inUse.map((url) => (
              <li>{url}</li>
            ))}
          </ul>
        </>
      )}
      <h3>{t('servers.credentials')}</h3>
      <p class="muted">{t('servers.credentialsDescription')}</p>
      {users.length > 0 && (
        <table class="server-users">
          <thead>
            <tr>
              <th scope="col">{t('servers.server')}</th>
              <th scope="col">{t('auth.username')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('servers.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr>
                <td>{user.baseUrl}</td>
                <td>{user.username || <span class="muted">{t('servers.token')}</span>}</td>
                <td>
                  <button type="button" aria-label={t('servers.removeFor', { server: shortUrl(user.baseUrl) })} onClick={() => removeServerUser(user.baseUrl)}>
                    {t('servers.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="server-user-form" onSubmit={add} aria-label={t('servers.add')}>
        <label>
          {t('servers.baseUrl')} <input name="user-server" inputMode="url" required maxLength={256} placeholder="https://ntfy.sh" value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} />
        </label>
        <label>
          {t('auth.username')} <input name="user-username" autocomplete="off" maxLength={256} value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
        </label>
        <label>
          {t('servers.secret')} <input name="user-secret" type="password" autocomplete="new-password" required maxLength={4096} value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        </label>
        {error && <p class="error">{error}</p>}
        <button type="submit">{t('servers.add')}</button>
      </form>
    </section>
  );
}
