import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import type { Account } from '../../lib/account.js';
import { useAction } from './useAction.js';

/** The account's e-mail addresses (ntfy 2.25): add one (a link is mailed to it), resend, make primary, remove. */
export function EmailsSection({ emails }: { emails: Account['emails'] }) {
  const [address, setAddress] = useState('');
  const { error, note, run } = useAction();
  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('PUT', '/v1/account/email', { body: { email: address } }), `A link to verify ${address} is on its way`)) setAddress('');
  };
  const act = (method: string, path: string, email: string, done: string): void => void run(() => api(method, path, { body: { email } }), done);
  return (
    <section class="panel" aria-label="E-mail addresses">
      <h3>E-mail addresses</h3>
      <p class="muted">The primary address receives password-reset links and the mails you publish with X-Email: yes.</p>
      <table class="tokens">
        <tbody>
          {(emails ?? []).map((e) => (
            <tr key={e.address}>
              <td>{e.address}</td>
              <td class="muted">{e.primary ? 'primary' : e.pending ? 'waiting for verification' : 'verified'}</td>
              <td>
                {e.pending && (
                  <button type="button" onClick={() => act('POST', '/v1/account/email/resend', e.address, 'Link sent again')}>
                    Resend
                  </button>
                )}
                {!e.pending && !e.primary && (
                  <button type="button" onClick={() => act('POST', '/v1/account/email/primary', e.address, `${e.address} is now primary`)}>
                    Make primary
                  </button>
                )}
                <button type="button" onClick={() => act('DELETE', '/v1/account/email', e.address, `${e.address} removed`)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => void add(e)} aria-label="Add e-mail address">
        <input type="email" name="email" aria-label="New e-mail address" placeholder="you@example.com" required value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
        <button type="submit">Add address</button>
      </form>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
