import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { navigate } from '../../lib/route.js';
import { session } from '../../lib/session.js';
import { useAction } from './useAction.js';
import { t } from '../../lib/i18n.js';

/** DELETE /v1/account, confirmed with the password; the session ends with it. */
export function DeleteAccountSection() {
  const [password, setPassword] = useState('');
  const { error, run } = useAction();
  const remove = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!window.confirm(t('deleteAccount.confirm'))) return;
    if (await run(() => api('DELETE', '/v1/account', { body: { password } }).then(() => session.set(null)))) navigate('');
  };
  return (
    <form class="panel danger" onSubmit={(e) => void remove(e)} aria-label={t('deleteAccount.heading')}>
      <h3>{t('deleteAccount.heading')}</h3>
      <div class="row">
        <label>
          {t('deleteAccount.password')} <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <button type="submit" class="danger">
          {t('deleteAccount.heading')}
        </button>
      </div>
      {error && <p class="error">{error}</p>}
    </form>
  );
}
