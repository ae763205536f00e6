import { useState } from 'preact/hooks';
import { scopesOf, type Account } from '../../lib/account.js';
import { api } from '../../lib/api.js';
import { session } from '../../lib/session.js';
import { TokenCells } from './TokenCells.js';
import { useAction } from './useAction.js';
import { t, tParts } from '../../lib/i18n.js';

const day = 86_400;
const lifetimes = (): [number, string][] => [
  [0, t('tokens.neverExpires')],
  [day, t('tokens.days', { count: 1 })],
  [30 * day, t('tokens.days', { count: 30 })],
  [365 * day, t('tokens.years', { count: 1 })],
];

/** Access tokens: the list (this session's marked), a new one with a label, lifetime and optional topic scopes, deleting one. */
export function TokensSection({ tokens = [] }: { tokens: Account['tokens'] }) {
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState('');
  const [lifetime, setLifetime] = useState(0);
  const { error, note, setNote, run } = useAction();
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const expires = lifetime ? Math.floor(Date.now() / 1000) + lifetime : 0;
    let created = '';
    const ok = await run(async () => {
      created = (await api<{ token: string }>('POST', '/v1/account/token', { body: { label, expires, scopes: scopesOf(scopes) } })).token;
    });
    if (!ok) return;
    setLabel('');
    setScopes('');
    // Said either way: the token is also in the list below to copy by hand.
    const copied = await navigator.clipboard?.writeText(created).then(
      () => true,
      () => false,
    );
    setNote(t(copied ? 'tokens.createdCopied' : 'tokens.createdCopyByHand', { token: created }));
  };
  return (
    <section class="panel" aria-label={t('tokens.heading')}>
      <h3>{t('tokens.heading')}</h3>
      <p class="muted">{tParts('tokens.intro', { header: <code>Authorization: Bearer tk_…</code> })}</p>
      <table class="tokens">
        <tbody>
          {tokens.map((token) => (
            <tr>
              <TokenCells token={token} />
              <td>
                {token.token === session.value?.token ? (
                  <span class="muted">{t('tokens.thisBrowser')}</span>
                ) : (
                  <button type="button" onClick={() => void run(() => api('DELETE', '/v1/account/token', { headers: { 'X-Token': token.token } }), t('tokens.deleted'))}>
                    {t('tokens.delete')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => void create(e)} aria-label={t('tokens.formLabel')}>
        <input name="label" aria-label={t('tokens.label')} placeholder={t('tokens.labelPlaceholder')} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        <select name="lifetime" aria-label={t('tokens.lifetime')} value={lifetime} onChange={(e) => setLifetime(Number(e.currentTarget.value))}>
          {lifetimes().map(([seconds, name]) => (
            <option value={seconds}>{name}</option>
          ))}
        </select>
        <input
          name="scopes"
          aria-label={t('tokens.scopes')}
          placeholder={t('tokens.scopesPlaceholder')}
          value={scopes}
          onInput={(e) => setScopes(e.currentTarget.value)}
        />
        <button type="submit">{t('tokens.create')}</button>
      </form>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
