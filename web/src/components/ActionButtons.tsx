import { useState } from 'preact/hooks';
import { performHttpAction } from '../lib/http-action.js';
import { safeHref } from '../lib/links.js';
import type { Action } from '../lib/message.js';
import { t } from '../lib/i18n.js';

type Outcome = 'running' | 'done' | string;

/**
 * A message's action buttons, as ntfy's web app shows them: view opens the URL, http
 * sends its request from the browser (✔, or ❌ and the error in words beside it), broadcast is an Android
 * intent a browser cannot send, so it stays disabled, and so does a view of a URL the page
 * will not link to (see safeHref).
 */
export function ActionButtons({ actions }: { actions: readonly Action[] }) {
  const [outcomes, setOutcomes] = useState<Record<number, Outcome>>({});
  const run = async (i: number, action: Action): Promise<void> => {
    setOutcomes((o) => ({ ...o, [i]: 'running' }));
    try {
      await performHttpAction(action);
      setOutcomes((o) => ({ ...o, [i]: 'done' }));
    } catch (err) {
      setOutcomes((o) => ({ ...o, [i]: err instanceof Error ? err.message : String(err) }));
    }
  };
  return (
    <div class="actions">
      {actions.map((action, i) => {
        const href = action.action === 'view' ? safeHref(action.url) : undefined;
        if (href) {
          return (
            <a class="button" href={href} target="_blank" rel="noopener" title={href}>
              {action.label}
            </a>
          );
        }
        if (action.action === 'http') {
          const outcome = outcomes[i];
          const suffix = outcome === 'running' ? ' …' : outcome === 'done' ? ' ✔' : outcome ? ' ❌' : '';
          const failure = outcome && outcome !== 'running' && outcome !== 'done' ? outcome : undefined;
          return (
            <span class="http-action">
              <button type="button" title={`${action.method ?? 'POST'} ${action.url}`} onClick={() => void run(i, action)}>
                {action.label + suffix}
              </button>
              {failure && (
                <span class="error" role="alert">
                  {failure}
                </span>
              )}
            </span>
          );
        }
        return (
          <button type="button" disabled title={action.action === 'view' ? t('action.notWebLink', { url: action.url ?? '' }) : t('action.broadcastAndroidOnly')}>
            {action.label}
          </button>
        );
      })}
    </div>
  );
}
