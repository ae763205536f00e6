import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import type { Account } from '../../lib/account.js';
import { useAction } from './useAction.js';
import { t } from '../../lib/i18n.js';

/** The account's e-mail addresses (ntfy 2.25): add one (a link is mailed to it), resend, make primary, remove. */
export function EmailsSection({ emails }: { emails: Account['emails'] }) {
  const [address, setAddress] = useState('');
  const { error, note, run } = useAction();
  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('PUT', '/v1/account/email', { body: { email: address } }), t('emails.added', { address }))) setAddress('');
  };
  const act = (method: string, path: string, email: string, done: string): void => void run(() => api(method, path, { body: { email } }), done);
  return (
    <section class="panel" aria-label={t('emails.label')}>
      <h3>{t('emails.label')}</h3>
      <p class="muted">{t('emails.intro')}</p>
      <table class="tokens">
        <tbody>
          {(emails ?? []).map((e) => (
            <tr key={e.address}>
              <td>{e.address}</td>
              <td class="muted">{t(e.primary ? 'emails.primary' : e.pending ? 'emails.pending' : 'emails.verified')}</td>
              <td>
                {e.pending && (
                  <button type="button" onClick={() => act('POST', '/v1/account/email/resend', e.address, t('emails.resent'))}>
                    {t('emails.resend')}
                  </button>
                )}
                {!e.pending && !e.primary && (
                  <button type="button" onClick={() => act('POST', '/v1/account/email/primary', e.address, t('emails.madePrimary', { address: e.address }))}>
                    {t('emails.makePrimary')}
                  </button>
                )}
                <button type="button" onClick={() => act('DELETE', '/v1/account/email', e.address, t('emails.removed', { address: e.address }))}>
                  {t('emails.remove')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => void add(e)} aria-label={t('emails.addLabel')}>
        <input type="email" name="email" aria-label={t('emails.newAddress')} placeholder="you@example.com" required value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
        <button type="submit">{t('emails.add')}</button>
      </form>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
