import { useState } from 'preact/hooks';
import { api, ApiError } from '../../lib/api.js';
import { useAction } from './useAction.js';
import { t } from '../../lib/i18n.js';

/** The server answers a wrong current password with 40026, worded for a confirmation field this form has not. */
const reason = (err: unknown): string | undefined => (err instanceof ApiError && err.code === 40026 ? t('password.wrongCurrent') : undefined);

/** POST /v1/account/password: the current password confirms the new one. */
export function PasswordSection() {
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const { error, note, run } = useAction();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('POST', '/v1/account/password', { body: { password, new_password: newPassword } }), t('password.changed'), reason)) {
      setPassword('');
      setNewPassword('');
    }
  };
  return (
    <form class="panel" onSubmit={(e) => void submit(e)} aria-label={t('password.label')}>
      <h3>{t('password.heading')}</h3>
      <div class="row">
        <label>
          {t('password.current')} <input type="password" name="current" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <label>
          {t('auth.newPassword')} <input type="password" name="new" autocomplete="new-password" required value={newPassword} onInput={(e) => setNewPassword(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('password.change')}</button>
      </div>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </form>
  );
}
