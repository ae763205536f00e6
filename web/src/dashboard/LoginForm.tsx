import { useState } from 'preact/hooks';
import { api, ApiError, basicAuth } from '../lib/api.js';
import { session } from '../lib/session.js';

/**
 * An admin's login: the password buys a token (POST /v1/account/token, as the web app
 * logs in), kept in the session the app shares, so the feed connects with `?auth=` of
 * the token and the password is never stored.
 */
export function LoginForm({ onLogin }: { onLogin: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      const { token } = await api<{ token: string }>('POST', '/v1/account/token', { headers: basicAuth(username, password), body: { label: 'Tocsin dashboard' } });
      session.set({ username, token });
      onLogin();
    } catch (err) {
      setError(err instanceof ApiError && err.code === 40101 ? 'Wrong user name or password' : String(err));
    }
  };
  return (
    <form class="panel narrow" onSubmit={(e) => void submit(e)} aria-label="Log in">
      <h2>Log in as an admin</h2>
      <label>
        User name <input name="username" autocomplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label>
        Password <input name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {error && <p class="error">{error}</p>}
      <button type="submit" class="primary">
        Log in
      </button>
    </form>
  );
}
