import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { navigate } from '../../lib/route.js';
import { session } from '../../lib/session.js';
import { useAction } from './useAction.js';

/** DELETE /v1/account, confirmed with the password; the session ends with it. */
export function DeleteAccountSection() {
  const [password, setPassword] = useState('');
  const { error, run } = useAction();
  const remove = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!window.confirm('Delete your account, its tokens and reservations for good?')) return;
    if (await run(() => api('DELETE', '/v1/account', { body: { password } }).then(() => session.set(null)))) navigate('');
  };
  return (
    <form class="panel danger" onSubmit={(e) => void remove(e)} aria-label="Delete account">
      <h3>Delete account</h3>
      <div class="row">
        <label>
          Password to confirm <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <button type="submit" class="danger">
          Delete account
        </button>
      </div>
      {error && <p class="error">{error}</p>}
    </form>
  );
}
