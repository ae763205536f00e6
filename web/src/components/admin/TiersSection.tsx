import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { formatBytes } from '../../lib/format.js';
import { t, type MessageKey } from '../../lib/i18n.js';
import { useAction } from '../account/useAction.js';
import { reloadAdmin, type AdminTier } from './admin-data.js';
import { AdminPanel, RecordTable } from './AdminPanel.js';
import { Feedback } from './Feedback.js';

/** A tier's limits as GET /v1/tiers keys them: seconds, bytes or counts, and their names here. */
const limits: { key: string; kind: 'count' | 'duration' | 'size'; name: MessageKey }[] = [
  { key: 'messages', kind: 'count', name: 'admin.tiers.messages' },
  { key: 'messages_expiry_duration', kind: 'duration', name: 'admin.tiers.messagesKept' },
  { key: 'emails', kind: 'count', name: 'admin.tiers.emails' },
  { key: 'calls', kind: 'count', name: 'admin.tiers.calls' },
  { key: 'reservations', kind: 'count', name: 'admin.tiers.reservations' },
  { key: 'attachment_file_size', kind: 'size', name: 'admin.tiers.attachmentSize' },
  { key: 'attachment_total_size', kind: 'size', name: 'admin.tiers.attachmentTotal' },
  { key: 'attachment_expiry_duration', kind: 'duration', name: 'admin.tiers.attachmentsKept' },
  { key: 'attachment_bandwidth', kind: 'size', name: 'admin.tiers.attachmentBandwidth' },
];

/** Seconds in the words the form takes back (12h, 30m, 45s). */
function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  return seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
}

function shown(kind: 'count' | 'duration' | 'size', value: number): string {
  if (kind === 'duration') return duration(value);
  return kind === 'size' ? formatBytes(value) : String(value);
}

/** What the form sends for a limit: a whole number as one (seconds, bytes), words (12h, 15M) as they are for the server to read; nothing when empty. */
function limitsOf(values: Record<string, string>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = raw.trim();
    if (value !== '') out[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/**
 * Tiers with their limits; one form adds a tier (limits left empty take `tocsin tier add`'s
 * defaults) or saves changes to one (limits left empty stay), filled by a row's Edit.
 */
export function TiersSection({ tiers }: { tiers: AdminTier[] }) {
  const { error, note, run } = useAction(reloadAdmin);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const clear = (): void => {
    setCode('');
    setName('');
    setValues({});
  };
  const edit = (tier: AdminTier): void => {
    setCode(tier.code);
    setName(tier.name);
    setValues(Object.fromEntries(limits.map((l) => [l.key, String(tier.limits[l.key] ?? '')])));
  };
  const send = async (method: 'POST' | 'PUT', done: MessageKey): Promise<void> => {
    if (await run(() => api(method, '/v1/tiers', { body: { code, ...(name && { name }), limits: limitsOf(values) } }), t(done, { tier: code }))) clear();
  };
  const remove = (tier: AdminTier): void => {
    if (window.confirm(t('admin.tiers.confirmRemove', { tier: tier.name }))) void run(() => api('DELETE', '/v1/tiers', { body: { code: tier.code } }), t('admin.tiers.removed', { tier: tier.name }));
  };
  return (
    <AdminPanel heading={t('admin.tiers.heading')}>
      {tiers.length === 0 ? (
        <p class="muted">{t('admin.tiers.none')}</p>
      ) : (
        <RecordTable columns={[t('admin.tiers.code'), t('admin.tiers.name'), t('admin.tiers.limits')]}>
          {tiers.map((tier) => (
            <tr>
              <td>
                <code>{tier.code}</code>
              </td>
              <td>{tier.name}</td>
              <td class="muted">{limits.map((l) => `${t(l.name)}: ${shown(l.kind, tier.limits[l.key] ?? 0)}`).join(' · ')}</td>
              <td>
                <button type="button" aria-label={t('admin.tiers.editTier', { tier: tier.name })} onClick={() => edit(tier)}>
                  {t('admin.tiers.edit')}
                </button>{' '}
                <button type="button" class="danger" aria-label={t('admin.tiers.removeTier', { tier: tier.name })} onClick={() => remove(tier)}>
                  {t('admin.remove')}
                </button>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send('POST', 'admin.tiers.added');
        }}
        aria-label={t('admin.tiers.formLegend')}
      >
        <fieldset>
          <legend>{t('admin.tiers.formLegend')}</legend>
          <p class="muted">{t('admin.tiers.hint')}</p>
          <div class="row">
            <label>
              {t('admin.tiers.code')} <input name="code" autocomplete="off" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </label>
            <label>
              {t('admin.tiers.name')} <input name="name" autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </label>
          </div>
          <div class="row">
            {limits.map((l) => (
              <label>
                {t(l.name)} <input name={l.key} autocomplete="off" value={values[l.key] ?? ''} onInput={(e) => setValues({ ...values, [l.key]: e.currentTarget.value })} />
              </label>
            ))}
          </div>
          <div class="row">
            <button type="submit">{t('admin.tiers.add')}</button>
            <button type="button" onClick={() => void send('PUT', 'admin.tiers.saved')}>
              {t('admin.tiers.save')}
            </button>
          </div>
        </fieldset>
      </form>
      <Feedback error={error} note={note} />
    </AdminPanel>
  );
}
