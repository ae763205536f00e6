import type { Action } from '../lib/message.js';
import { t } from '../lib/i18n.js';

const blank: Action = { action: 'view', label: '', url: '' };

/** The publish dialog's action rows: view, http (method, body) or broadcast; at most three, as ntfy allows. */
export function ActionsEditor({ actions, onChange }: { actions: Action[]; onChange: (actions: Action[]) => void }) {
  const change = (i: number, patch: Partial<Action>): void => onChange(actions.map((a, j) => (i === j ? { ...a, ...patch } : a)));
  return (
    <fieldset class="actions-editor">
      <legend>{t('actionsEditor.legend')}</legend>
      {actions.map((a, i) => (
        <div class="action-row">
          <select aria-label={t('actionsEditor.type')} value={a.action} onChange={(e) => change(i, { action: e.currentTarget.value as Action['action'] })}>
            <option value="view">view</option>
            <option value="http">http</option>
            <option value="broadcast">broadcast</option>
          </select>
          <input aria-label={t('actionsEditor.label')} placeholder={t('actionsEditor.labelPlaceholder')} value={a.label} onInput={(e) => change(i, { label: e.currentTarget.value })} />
          {a.action !== 'broadcast' && <input aria-label={t('actionsEditor.url')} placeholder="https://…" value={a.url ?? ''} onInput={(e) => change(i, { url: e.currentTarget.value })} />}
          {a.action === 'http' && (
            <>
              <select aria-label={t('actionsEditor.method')} value={a.method ?? 'POST'} onChange={(e) => change(i, { method: e.currentTarget.value })}>
                {['POST', 'PUT', 'GET', 'DELETE'].map((m) => (
                  <option value={m}>{m}</option>
                ))}
              </select>
              <input aria-label={t('actionsEditor.body')} placeholder={t('actionsEditor.bodyPlaceholder')} value={a.body ?? ''} onInput={(e) => change(i, { body: e.currentTarget.value })} />
            </>
          )}
          <button type="button" aria-label={t('actionsEditor.remove')} onClick={() => onChange(actions.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      {actions.length < 3 && (
        <button type="button" onClick={() => onChange([...actions, { ...blank }])}>
          {t('actionsEditor.add')}
        </button>
      )}
    </fieldset>
  );
}
