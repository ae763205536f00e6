import { useState } from 'preact/hooks';
import type { Account } from '../../lib/account.js';
import { api } from '../../lib/api.js';
import { useAction } from './useAction.js';
import { t } from '../../lib/i18n.js';

const everyoneOptions = [
  ['deny-all', 'reservations.onlyMe'],
  ['read-only', 'reservations.everyoneReads'],
  ['write-only', 'reservations.everyonePublishes'],
  ['read-write', 'reservations.everyoneReadsAndPublishes'],
] as const;

/** What everyone else may do with a reservation, in words (the server's value when it is a new one). */
function described(everyone: string): string {
  const key = everyoneOptions.find(([value]) => value === everyone)?.[1];
  return key ? t(key) : everyone;
}

/**
 * Reserved topics (with enable-reservations): the user's own, and what everyone else may do
 * with them. The server lets admins reserve any number and users as many as their tier says;
 * a user without a tier may not reserve at all, so is told so instead of offered a form.
 */
export function ReservationsSection({ account: { reservations = [], role, tier, limits } }: { account: Account }) {
  const [topic, setTopic] = useState('');
  const [everyone, setEveryone] = useState('deny-all');
  const { error, note, run } = useAction();
  const reserve = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('POST', '/v1/account/reservation', { body: { topic, everyone } }), t('reservations.reserved', { topic }))) setTopic('');
  };
  return (
    <section class="panel" aria-label={t('reservations.heading')}>
      <h3>{t('reservations.heading')}</h3>
      {role === 'user' && !tier && <p class="muted">{t('reservations.needsPlan')}</p>}
      {role === 'user' && tier && <p class="muted">{t('reservations.planLimit', { count: limits?.reservations ?? 0, plan: tier.name })}</p>}
      <ul class="reservations">
        {reservations.map((r) => (
          <li>
            <strong>{r.topic}</strong> <span class="muted">{described(r.everyone)}</span>{' '}
            <button type="button" onClick={() => void run(() => api('DELETE', `/v1/account/reservation/${r.topic}`), t('reservations.released', { topic: r.topic }))}>
              {t('reservations.release')}
            </button>
          </li>
        ))}
      </ul>
      {(role !== 'user' || tier) && (
        <form class="row" onSubmit={(e) => void reserve(e)} aria-label={t('reservations.formLabel')}>
          <input name="topic" aria-label={t('reservations.topicLabel')} placeholder={t('reservations.topicPlaceholder')} required value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
          <select name="everyone" aria-label={t('reservations.everyoneLabel')} value={everyone} onChange={(e) => setEveryone(e.currentTarget.value)}>
            {everyoneOptions.map(([value, key]) => (
              <option value={value}>{t(key)}</option>
            ))}
          </select>
          <button type="submit">{t('reservations.reserve')}</button>
        </form>
      )}
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
