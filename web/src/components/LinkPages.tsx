import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import { Link } from './Link.js';

/** The pages of the reset request and of mailed magic links (ntfy 2.25's /account/... paths). */

function reason(err: unknown): string {
  if (err instanceof ApiError && (err.code === 40051 || err.code === 40054)) return 'This link is invalid, expired or already used.';
  if (err instanceof ApiError && err.code === 42906) return 'Too many requests from here; try again tomorrow.';
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
    <div class="panel narrow" aria-label="Verify e-mail address">
      <h2>E-mail address</h2>
      {!state.done && <p class="muted">Verifying…</p>}
      {state.done && !state.error && <p class="note">Your e-mail address is verified.</p>}
      {state.error && <p class="error">{state.error}</p>}
      <p>
        <Link to="account">Your account</Link>
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
      setNote('If an account with a verified e-mail address matches, a link to reset its password is on its way.');
    } catch (err) {
      setError(reason(err));
    }
  };
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label="Reset password">
      <h2>Reset your password</h2>
      <label>
        User name or e-mail address <input name="identifier" autocomplete="username" required value={identifier} onInput={(e) => setIdentifier(e.currentTarget.value)} />
      </label>
      {note && <p class="note">{note}</p>}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        Send link
      </button>
      <p>
        <Link to="login">Log in</Link>
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
    if (password !== confirm) return setError('The passwords differ');
    setError('');
    try {
      await api('POST', '/v1/account/password/reset', { body: { token, password } });
      setNote('Your password is changed; log in with it.');
    } catch (err) {
      setError(reason(err));
    }
  };
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label="Choose a new password">
      <h2>Choose a new password</h2>
      <label>
        New password <input name="password" type="password" autocomplete="new-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <label>
        Confirm password <input name="confirm" type="password" autocomplete="new-password" required value={confirm} onInput={(e) => setConfirm(e.currentTarget.value)} />
      </label>
      {note && <p class="note">{note}</p>}
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        Set password
      </button>
      <p>
        <Link to="login">Log in</Link>
      </p>
    </form>
  );
}
