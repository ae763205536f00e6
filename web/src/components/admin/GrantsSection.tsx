import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { t, type MessageKey } from '../../lib/i18n.js';
import { useAction } from '../account/useAction.js';
import { everyone, reloadAdmin, type AdminData, type Grant } from './admin-data.js';
import { AdminPanel, RecordTable } from './AdminPanel.js';
import { Feedback } from './Feedback.js';

/** ntfy's permission words, as the server lists and takes them, and their names here. */
const permissions = new Map<string, MessageKey>([
  ['read-write', 'admin.permission.readWrite'],
  ['read-only', 'admin.permission.readOnly'],
  ['write-only', 'admin.permission.writeOnly'],
  ['deny-all', 'admin.permission.denyAll'],
]);
const permissionName = (word: string): string => {
  const key = permissions.get(word);
  return key ? t(key) : word;
};

/** Who holds grants, as /v1/users/access names them: a user (or `*`), or a group (`authenticated`: every logged-in user). */
type Holder = { username: string } | { group: string };

/** A holder as a select's value and back: `u:NAME` or `g:NAME`. */
const holderValue = (h: Holder): string => ('group' in h ? `g:${h.group}` : `u:${h.username}`);
const holderOf = (value: string): Holder => (value.startsWith('g:') ? { group: value.slice(2) } : { username: value.slice(2) });

function holderName(h: Holder): string {
  if ('group' in h) return h.group === 'authenticated' ? t('admin.grants.authenticated') : t('admin.grants.group', { group: h.group });
  return h.username === everyone ? t('admin.grants.everyone') : h.username;
}

/**
 * Grants, each a user's or a group's (everyone and every logged-in user included): a topic
 * or pattern and what it allows. Admins may do anything, so their rows are not offered.
 */
export function GrantsSection({ data: { users, groups, authenticated } }: { data: AdminData }) {
  const { error, note, run } = useAction(reloadAdmin);
  const holders: [Holder, Grant[]][] = [
    ...users.filter((u) => u.role !== 'admin').map((u): [Holder, Grant[]] => [{ username: u.username }, u.grants ?? []]),
    [{ group: 'authenticated' }, authenticated],
    ...groups.map((g): [Holder, Grant[]] => [{ group: g.name }, g.grants ?? []]),
  ];
  const rows = holders.flatMap(([holder, grants]) => grants.map((grant) => ({ holder, grant })));
  const [holder, setHolder] = useState('');
  const [topic, setTopic] = useState('');
  const [permission, setPermission] = useState('read-write');
  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    const who = holderOf(holder);
    if (await run(() => api('PUT', '/v1/users/access', { body: { ...who, topic, permission } }), t('admin.grants.added', { who: holderName(who), topic }))) setTopic('');
  };
  const remove = (who: Holder, grant: Grant): void => {
    const params = { who: holderName(who), topic: grant.topic };
    if (window.confirm(t('admin.grants.confirmRemove', params))) void run(() => api('DELETE', '/v1/users/access', { body: { ...who, topic: grant.topic } }), t('admin.grants.removed'));
  };
  return (
    <AdminPanel heading={t('admin.grants.heading')}>
      {rows.length === 0 ? (
        <p class="muted">{t('admin.grants.none')}</p>
      ) : (
        <RecordTable columns={[t('admin.grants.who'), t('admin.grants.topic'), t('admin.grants.permission')]} class="tokens grants">
          {rows.map(({ holder: who, grant }) => (
            <tr>
              <td>{holderName(who)}</td>
              <td>
                <code>{grant.topic}</code>
              </td>
              <td>{permissionName(grant.permission)}</td>
              <td>
                <button type="button" class="danger" aria-label={t('admin.grants.removeGrant', { who: holderName(who), topic: grant.topic })} onClick={() => remove(who, grant)}>
                  {t('admin.remove')}
                </button>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      <form class="row" onSubmit={(e) => void add(e)} aria-label={t('admin.grants.addLegend')}>
        <label>
          {t('admin.grants.who')}{' '}
          <select name="holder" required value={holder} onChange={(e) => setHolder(e.currentTarget.value)}>
            <option value="">{t('admin.choose')}</option>
            {holders.map(([h]) => (
              <option value={holderValue(h)}>{holderName(h)}</option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.grants.topic')} <input name="topic" autocomplete="off" required value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        <label>
          {t('admin.grants.permission')}{' '}
          <select name="permission" value={permission} onChange={(e) => setPermission(e.currentTarget.value)}>
            {[...permissions.keys()].map((p) => (
              <option value={p}>{permissionName(p)}</option>
            ))}
          </select>
        </label>
        <button type="submit">{t('admin.grants.add')}</button>
      </form>
      <Feedback error={error} note={note} />
    </AdminPanel>
  );
}
