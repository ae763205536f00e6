import { useEffect, useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { formatTime } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';
import { TokenCells, type Token } from '../account/TokenCells.js';
import { useAction } from '../account/useAction.js';
import type { AdminUser } from './admin-data.js';
import { AdminPanel, UserSelect } from './AdminPanel.js';
import { Feedback } from './Feedback.js';

/** The tokens of a chosen user (GET /v1/users/tokens): label, scopes, expiry, last use; each revoked after a confirmation. */
export function UserTokensSection({ users }: { users: AdminUser[] }) {
  const [username, setUsername] = useState('');
  const [tokens, setTokens] = useState<Token[] | undefined>(undefined);
  const load = async (): Promise<void> => {
    setTokens(username ? (await api<{ tokens: Token[] }>('GET', `/v1/users/tokens?username=${encodeURIComponent(username)}`)).tokens : undefined);
  };
  const { error, note, run } = useAction(load);
  // Choosing a user loads their tokens: the reload after no change, so its error shows as any other.
  useEffect(() => {
    void run(async () => undefined);
  }, [username]);
  const revoke = (token: Token): void => {
    const label = token.label || token.token;
    if (window.confirm(t('admin.tokens.confirmRevoke', { label, user: username }))) void run(() => api('DELETE', '/v1/users/tokens', { body: { username, token: token.token } }), t('admin.tokens.revoked'));
  };
  return (
    <AdminPanel heading={t('admin.tokens.heading')}>
      <label>
        {t('admin.users.name')}{' '}
        <UserSelect name="token-user" users={users} value={username} onChange={setUsername} />
      </label>
      {tokens?.length === 0 && <p class="muted">{t('admin.tokens.none', { user: username })}</p>}
      {tokens && tokens.length > 0 && (
        <table class="tokens">
          <tbody>
            {tokens.map((token) => (
              <tr>
                <TokenCells token={token} />
                <td class="muted">{token.last_access ? t('admin.tokens.lastAccess', { time: formatTime(token.last_access) }) : t('admin.tokens.neverUsed')}</td>
                <td>
                  <button type="button" class="danger" aria-label={t('admin.tokens.revokeToken', { label: token.label || token.token })} onClick={() => revoke(token)}>
                    {t('admin.tokens.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Feedback error={error} note={note} />
    </AdminPanel>
  );
}
