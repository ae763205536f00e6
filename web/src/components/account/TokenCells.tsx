import type { Account } from '../../lib/account.js';
import { formatTime } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';

export type Token = NonNullable<Account['tokens']>[number];

/** A token's row cells as the account page and the admin page both show them: the token, its label, scopes and expiry. */
export function TokenCells({ token }: { token: Token }) {
  return (
    <>
      <td>
        <code class="token">{token.token}</code>
      </td>
      <td>{token.label || <span class="muted">{t('tokens.noLabel')}</span>}</td>
      <td class="scopes">{token.scopes ? token.scopes.map((sc) => `${sc.topic} (${sc.permission})`).join(', ') : <span class="muted">{t('tokens.allTopics')}</span>}</td>
      <td class="muted">{token.expires ? t('tokens.until', { time: formatTime(token.expires) }) : t('tokens.neverExpires')}</td>
    </>
  );
}
