import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import { Link } from './Link.js';
import { t } from '../lib/i18n.js';

/** The pages of the reset request and of mailed magic links (ntfy 2.25's /account/... paths). */

function reason(err: unknown): string {
  if (err instanceof ApiError && (err.code === 40051 || err.code === 40054)) return t('mailLink.invalid');
  if (err instanceof ApiError && err.code === 42906) return t('mailLink.tooMany');
  return err instanceof Error ? err.message : String(err);
}

/** /account/email/verify/{token}: hands the token over at once; no login needed. */
export function VerifyEmailPage({ token }: { token: string }) {
  const [state, setState] = useState<{ done: boolean; error: string }>({ done: false, error: '' });
  useEffect(() => {
    api('POST', '/v1/account/email/verify', { body: { token } }).then(
      () => setState({ done: true, error: '' }),
      (err: unknown) => setState({ done: true, error: reason(err) }),
    );
  }, [token]);
  return (
    <div class="panel narrow" aria-label={t('verifyEmail.label')}>
      <h2>{t('verifyEmail.heading')}</h2>
      {!state.done && <p class="muted">{t('verifyEmail.verifying')}</p>}
      {state.done && !state.error && <p class="note">{t('verifyEmail.done')}</p>}
      {state.error && <p class="error">{state.error}</p>}
      <p>
        <Link to="account">{t('mailLink.yourAccount')}</Link>
      </p>
    </div>
  );
}

/** /account/password/reset: asks for a reset link by user name or e-mail address. */
export function ForgotPasswordPage() {
  const [identifier, setIdentifier] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    try {
      await api('POST', '/v1/account/password/reset/request', { body: { identifier } });
      setNote(t('resetRequest.sent'));
    } catch (err) {
      setError(reason(err));
    }
  };
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label={t('resetRequest.label')}>
      <h2>{t('resetRequest.heading')}</h2>
      <label>
        {t('resetRequest.identifier')} <input name="identifier" autocomplete="username" required value={identifier} onInput={(e) => setIdentifier(e.currentTarget.value)} />
      </label>
      {note && <p class="note">{note}</p>}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        {t('resetRequest.send')}
      </button>
      <p>
        <Link to="login">{t('auth.logIn')}</Link>
      </p>
    </form>
  );
}

/** /account/password/reset/{token}: a new password for the account the link was mailed for. */
export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (password !== confirm) return setError(t('auth.passwordsDiffer'));
    setError('');
    try {
      await api('POST', '/v1/account/password/reset', { body: { token, password } });
      setNote(t('resetPassword.done'));
    } catch (err) {
      setError(reason(err));
    }
  };
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label={t('resetPassword.heading')}>
      <h2>{t('resetPassword.heading')}</h2>
      <label>
        {t('auth.newPassword')} <input name="password" type="password" autocomplete="new-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <label>
        {t('auth.confirmPassword')} <input name="confirm" type="password" autocomplete="new-password" required value={confirm} onInput={(e) => setConfirm(e.currentTarget.value)} />
      </label>
      {note && <p class="note">{note}</p>}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        {t('resetPassword.set')}
      </button>
      <p>
        <Link to="login">{t('auth.logIn')}</Link>
      </p>
    </form>
  );
}
