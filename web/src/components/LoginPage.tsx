import { useState } from 'preact/hooks';
import { logIn, signUp } from '../lib/account.js';
import { ApiError } from '../lib/api.js';
import { apiBase, serverConfig } from '../lib/config.js';
import { navigate } from '../lib/route.js';
import { Link } from './Link.js';

/** Why a login or sign-up was refused, in words (ntfy's codes). */
function reason(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  if (err.code === 40101) return 'Wrong user name or password';
  if (err.code === 40901) return 'That user name is taken';
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
    if (signup && password !== confirm) return setError('The passwords differ');
    try {
      await (signup ? signUp(username, password) : logIn(username, password));
      navigate('account');
    } catch (err) {
      setError(reason(err));
    }
  };
  if (!serverConfig.enable_login) return <p class="empty">This server has no accounts (enable-login is off).</p>;
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label={signup ? 'Sign up' : 'Log in'}>
      <h2>{signup ? 'Create an account' : 'Log in'}</h2>
      <label>
        User name <input name="username" autocomplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label>
        Password <input name="password" type="password" autocomplete={signup ? 'new-password' : 'current-password'} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {signup && (
        <label>
          Confirm password <input name="confirm" type="password" autocomplete="new-password" required value={confirm} onInput={(e) => setConfirm(e.currentTarget.value)} />
        </label>
      )}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        {signup ? 'Sign up' : 'Log in'}
      </button>
      {!signup && serverConfig.auth_oidc && (
        // A page load, not the app's router: the server sends the browser on to the provider.
        <a class="button" href={`${apiBase}/v1/auth/oidc/login`}>
          Sign in with SSO
        </a>
      )}
      {!signup && serverConfig.enable_reset_password && (
        <p>
          <Link to="account/password/reset">Forgot your password?</Link>
        </p>
      )}
      {!signup && serverConfig.enable_signup && (
        <p>
          No account? <Link to="signup">Sign up</Link>
        </p>
      )}
      {signup && (
        <p>
          Have one? <Link to="login">Log in</Link>
        </p>
      )}
    </form>
  );
}
