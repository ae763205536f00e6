import { useState } from 'preact/hooks';
import { logIn, signUp } from '../lib/account.js';
import { ApiError } from '../lib/api.js';
import { apiBase, serverConfig } from '../lib/config.js';
import { navigate } from '../lib/route.js';
import { Link } from './Link.js';
import { t, tParts } from '../lib/i18n.js';

/** Why a login or sign-up was refused, in words (ntfy's codes). */
function reason(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  if (err.code === 40101) return t('auth.wrongCredentials');
  if (err.code === 40901) return t('auth.usernameTaken');
  return err.message;
}

/** Log in, or sign up (with enable-signup): either ends logged in, on the account page. */
export function LoginPage({ signup }: { signup: boolean }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (signup && password !== confirm) return setError(t('auth.passwordsDiffer'));
    try {
      await (signup ? signUp(username, password) : logIn(username, password));
      navigate('account');
    } catch (err) {
      setError(reason(err));
    }
  };
  if (!serverConfig.enable_login) return <p class="empty">{t('auth.noAccounts')}</p>;
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label={signup ? t('auth.signUp') : t('auth.logIn')}>
      <h2>{signup ? t('auth.createAccount') : t('auth.logIn')}</h2>
      <label>
        {t('auth.username')} <input name="username" autocomplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label>
        {t('auth.password')} <input name="password" type="password" autocomplete={signup ? 'new-password' : 'current-password'} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {signup && (
        <label>
          {t('auth.confirmPassword')} <input name="confirm" type="password" autocomplete="new-password" required value={confirm} onInput={(e) => setConfirm(e.currentTarget.value)} />
        </label>
      )}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        {signup ? t('auth.signUp') : t('auth.logIn')}
      </button>
      {!signup && serverConfig.auth_oidc && (
        // A page load, not the app's router: the server sends the browser on to the provider.
        <a class="button" href={`${apiBase}/v1/auth/oidc/login`}>
          {t('auth.signInSso')}
        </a>
      )}
      {!signup && serverConfig.enable_reset_password && (
        <p>
          <Link to="account/password/reset">{t('auth.forgotPassword')}</Link>
        </p>
      )}
      {!signup && serverConfig.enable_signup && (
        <p>
          {tParts('auth.noAccount', { signUp: <Link to="signup">{t('auth.signUp')}</Link> })}
        </p>
      )}
      {signup && (
        <p>
          {tParts('auth.haveAccount', { logIn: <Link to="login">{t('auth.logIn')}</Link> })}
        </p>
      )}
    </form>
  );
}
