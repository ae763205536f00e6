import { useState } from 'preact/hooks';
import { scopesOf, type Account } from '../../lib/account.js';
import { api } from '../../lib/api.js';
import { formatTime } from '../../lib/format.js';
import { session } from '../../lib/session.js';
import { useAction } from './useAction.js';

const day = 86_400;
const lifetimes = [
  [0, 'never expires'],
  [day, '1 day'],
  [30 * day, '30 days'],
  [365 * day, '1 year'],
] as const;

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
    setNote(copied ? `Token ${created} created and copied to the clipboard` : `Token ${created} created; copy it from the list below`);
  };
  return (
    <section class="panel" aria-label="Access tokens">
      <h3>Access tokens</h3>
      <p class="muted">For scripts and apps: send one as <code>Authorization: Bearer tk_…</code>.</p>
      <table class="tokens">
        <tbody>
          {tokens.map((t) => (
            <tr>
              <td>
                <code class="token">{t.token}</code>
              </td>
              <td>{t.label || <span class="muted">no label</span>}</td>
              <td class="scopes">{t.scopes ? t.scopes.map((sc) => `${sc.topic} (${sc.permission})`).join(', ') : <span class="muted">all topics</span>}</td>
              <td class="muted">{t.expires ? `until ${formatTime(t.expires)}` : 'never expires'}</td>
              <td>
                {t.token === session.value?.token ? (
                  <span class="muted">this browser</span>
                ) : (
                  <button type="button" onClick={() => void run(() => api('DELETE', '/v1/account/token', { headers: { 'X-Token': t.token } }), 'Token deleted')}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => void create(e)} aria-label="Create token">
        <input name="label" aria-label="Token label" placeholder="Label, e.g. backup script" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        <select name="lifetime" aria-label="Token lifetime" value={lifetime} onChange={(e) => setLifetime(Number(e.currentTarget.value))}>
          {lifetimes.map(([seconds, name]) => (
            <option value={seconds}>{name}</option>
          ))}
        </select>
        <input
          name="scopes"
          aria-label="Token scopes"
          placeholder="Only these topics (optional), e.g. deploys:wo, logs-*:ro"
          value={scopes}
          onInput={(e) => setScopes(e.currentTarget.value)}
        />
        <button type="submit">Create token</button>
      </form>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
