import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { useAction } from './useAction.js';

/** POST /v1/account/password: the current password confirms the new one. */
export function PasswordSection() {
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const { error, note, run } = useAction();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('POST', '/v1/account/password', { body: { password, new_password: newPassword } }), 'Password changed')) {
      setPassword('');
      setNewPassword('');
    }
  };
  return (
    <form class="panel" onSubmit={(e) => void submit(e)} aria-label="Change password">
      <h3>Password</h3>
      <div class="row">
        <input type="password" name="current" aria-label="Current password" placeholder="Current password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <input type="password" name="new" aria-label="New password" placeholder="New password" autocomplete="new-password" required value={newPassword} onInput={(e) => setNewPassword(e.currentTarget.value)} />
        <button type="submit">Change password</button>
      </div>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </form>
  );
}
