import { useState } from 'preact/hooks';
import { apiBase, serverConfig } from '../lib/config.js';
import { publish, type Draft } from '../lib/publish.js';
import { labelOf, serversInUse, shortUrl, type Located } from '../lib/servers.js';
import { useStore } from '../lib/store.js';
import { subscriptions } from '../lib/subscriptions.js';
import { ActionsEditor } from './ActionsEditor.js';
import { useModal } from './useModal.js';
import { t } from '../lib/i18n.js';

const priorities = [5, 4, 3, 2, 1] as const;

/**
 * The publish dialog, with every option ntfy's has: title, tags, priority, delay, click,
 * attachment, e-mail, actions, Markdown; to `target`'s server, or another the subscriptions are on.
 */
export function PublishDialog({ target, onClose }: { target: Located; onClose: () => void }) {
  const servers = serversInUse(useStore(subscriptions));
  const [draft, setDraft] = useState<Draft>({ ...target, message: '', title: '', tags: '', priority: 3, delay: '', click: '', email: '', markdown: false, attachUrl: '', file: undefined, actions: [] });
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [error, setError] = useState('');
  const dialog = useModal<HTMLDivElement>(onClose);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]): void => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: 'topic' | 'message' | 'title' | 'tags' | 'delay' | 'click' | 'email' | 'attachUrl') => ({
    value: draft[key],
    onInput: (e: Event) => set(key, (e.currentTarget as HTMLInputElement).value),
  });
  const send = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    setProgress(0);
    try {
      await publish(draft, setProgress);
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setProgress(undefined);
    }
  };
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} class="dialog publish" role="dialog" aria-modal="true" aria-labelledby="publish-heading">
        <form onSubmit={(e) => void send(e)} aria-labelledby="publish-heading">
          <h2 id="publish-heading">{t('publish.heading', { topic: draft.topic ? labelOf(draft) : '…' })}</h2>
          <label>
            {t('publish.topic')} <input name="topic" required {...text('topic')} />
          </label>
          {servers.length > 0 && (
            <label>
              {t('servers.server')}
              <select name="server" value={draft.baseUrl ?? ''} onChange={(e) => set('baseUrl', e.currentTarget.value || undefined)}>
                <option value="">{shortUrl(apiBase)}</option>
                {servers.map((url) => (
                  <option value={url}>{shortUrl(url)}</option>
                ))}
              </select>
            </label>
          )}
          <label>
            {t('publish.title')} <input name="title" {...text('title')} />
          </label>
          <label>
            {t('publish.message')} <textarea name="message" rows={4} {...text('message')} />
          </label>
          <label class="inline">
            <input type="checkbox" name="markdown" checked={draft.markdown} onChange={(e) => set('markdown', e.currentTarget.checked)} /> {t('publish.markdown')}
          </label>
          <div class="row">
            <label>
              {t('publish.tags')} <input name="tags" placeholder="warning,skull" {...text('tags')} />
            </label>
            <label>
              {t('publish.priority')}
              <select name="priority" value={draft.priority} onChange={(e) => set('priority', Number(e.currentTarget.value))}>
                {priorities.map((value) => (
                  <option value={value}>{t(`priority.${value}`)}</option>
                ))}
              </select>
            </label>
          </div>
          <div class="row">
            <label>
              {t('publish.delay')}
              {/* The server reads delays in English (ntfy's syntax), so the example stays in it. */}
              <input name="delay" placeholder="30m, tomorrow 10am" {...text('delay')} />
            </label>
            <label>
              {t('publish.click')} <input name="click" type="url" {...text('click')} />
            </label>
          </div>
          {serverConfig.enable_emails && (
            <label>
              {t('publish.email')} <input name="email" type="email" {...text('email')} />
            </label>
          )}
          <div class="row">
            <label>
              {t('publish.attachUrl')} <input name="attach" type="url" disabled={draft.file !== undefined} {...text('attachUrl')} />
            </label>
            <label>
              {t('publish.file')} <input name="file" type="file" onChange={(e) => set('file', e.currentTarget.files?.[0])} />
            </label>
          </div>
          <ActionsEditor actions={draft.actions} onChange={(actions) => set('actions', actions)} />
          {progress !== undefined && <progress value={progress} max={1} aria-label={t('publish.progress')} />}
          {error && <p class="error">{error}</p>}
          <div class="dialog-buttons">
            <button type="button" onClick={onClose}>
              {t('publish.cancel')}
            </button>
            <button type="submit" class="primary" disabled={progress !== undefined}>
              {t('publish.send')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
