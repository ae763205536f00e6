import { useState } from 'preact/hooks';
import type { Account } from '../../lib/account.js';
import { api } from '../../lib/api.js';
import { useAction } from './useAction.js';

const everyoneOptions = [
  ['deny-all', 'only me'],
  ['read-only', 'everyone may read'],
  ['write-only', 'everyone may publish'],
  ['read-write', 'everyone may read and publish'],
] as const;

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
    if (await run(() => api('POST', '/v1/account/reservation', { body: { topic, everyone } }), `Reserved ${topic}`)) setTopic('');
  };
  return (
    <section class="panel" aria-label="Reserved topics">
      <h3>Reserved topics</h3>
      {role === 'user' && !tier && <p class="muted">Reserving topics needs a plan with reservations; the server's admin can give you one.</p>}
      {role === 'user' && tier && <p class="muted">Up to {limits?.reservations ?? 0} on your plan ({tier.name}).</p>}
      <ul class="reservations">
        {reservations.map((r) => (
          <li>
            <strong>{r.topic}</strong> <span class="muted">{everyoneOptions.find(([value]) => value === r.everyone)?.[1] ?? r.everyone}</span>{' '}
            <button type="button" onClick={() => void run(() => api('DELETE', `/v1/account/reservation/${r.topic}`), `Released ${r.topic}`)}>
              Release
            </button>
          </li>
        ))}
      </ul>
      {(role !== 'user' || tier) && (
        <form class="row" onSubmit={(e) => void reserve(e)} aria-label="Reserve topic">
          <input name="topic" aria-label="Topic to reserve" placeholder="Topic" required value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
          <select name="everyone" aria-label="Access for everyone else" value={everyone} onChange={(e) => setEveryone(e.currentTarget.value)}>
            {everyoneOptions.map(([value, name]) => (
              <option value={value}>{name}</option>
            ))}
          </select>
          <button type="submit">Reserve</button>
        </form>
      )}
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </section>
  );
}
