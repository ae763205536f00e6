import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { t } from '../../lib/i18n.js';
import { session } from '../../lib/session.js';
import { useAction } from '../account/useAction.js';
import { everyone, reloadAdmin, type AdminData } from './admin-data.js';
import { AdminPanel, RecordTable } from './AdminPanel.js';
import { Feedback } from './Feedback.js';

/**
 * Users: each with their role and tier (changed as soon as chosen) and removal; a form to add
 * one and one to set a user's password. The server keeps an admin's password and tier to the
 * CLI and refuses to remove an admin, so those controls are off on admins' rows.
 */
export function UsersSection({ data: { users, tiers } }: { data: AdminData }) {
  const { error, note, run } = useAction(reloadAdmin);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [tier, setTier] = useState('');
  const [resetting, setResetting] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const people = users.filter((u) => u.username !== everyone);
  const me = session.value?.username;
  const change = (user: string, body: Record<string, unknown>, done: string): void => void run(() => api('PUT', '/v1/users', { body: { username: user, ...body } }), done);
  const roleName = (role: string): string => t(role === 'admin' ? 'admin.role.admin' : 'admin.role.user');
  const tierName = (code: string): string => tiers.find((tr) => tr.code === code)?.name ?? code;
  const remove = (user: string): void => {
    if (window.confirm(t('admin.users.confirmRemove', { user }))) void run(() => api('DELETE', '/v1/users', { body: { username: user } }), t('admin.users.removed', { user }));
  };
  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('POST', '/v1/users', { body: { username, password, ...(tier && { tier }) } }), t('admin.users.added', { user: username }))) {
      setUsername('');
      setPassword('');
    }
  };
  const setUserPassword = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('PUT', '/v1/users', { body: { username: resetting, password: newPassword } }), t('admin.users.passwordSet', { user: resetting }))) setNewPassword('');
  };
  return (
    <AdminPanel heading={t('admin.users.heading')}>
      <RecordTable columns={[t('admin.users.name'), t('admin.users.role'), t('admin.users.tier')]}>
        {people.map((u) => (
          <tr>
            <td>{u.username}</td>
            <td>
              <select aria-label={t('admin.users.roleOf', { user: u.username })} value={u.role} disabled={u.username === me} onChange={(e) => change(u.username, { role: e.currentTarget.value }, t('admin.users.roleChanged', { user: u.username, role: roleName(e.currentTarget.value) }))}>
                <option value="user">{t('admin.role.user')}</option>
                <option value="admin">{t('admin.role.admin')}</option>
              </select>
            </td>
            <td>
              <select aria-label={t('admin.users.tierOf', { user: u.username })} value={u.tier ?? ''} disabled={u.role === 'admin'} onChange={(e) => {
                  const code = e.currentTarget.value;
                  change(u.username, { tier: code || null }, code ? t('admin.users.tierChanged', { user: u.username, tier: tierName(code) }) : t('admin.users.tierRemoved', { user: u.username }));
                }}>
                <option value="">{t('admin.users.noTier')}</option>
                {tiers.map((tr) => (
                  <option value={tr.code}>{tr.name}</option>
                ))}
              </select>
            </td>
            <td>
              <button type="button" class="danger" aria-label={t('admin.users.removeUser', { user: u.username })} disabled={u.role === 'admin'} onClick={() => remove(u.username)}>
                {t('admin.remove')}
              </button>
            </td>
          </tr>
        ))}
      </RecordTable>
      <form class="row" onSubmit={(e) => void add(e)} aria-label={t('admin.users.addLegend')}>
        <label>
          {t('admin.users.username')} <input name="username" autocomplete="off" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
        </label>
        <label>
          {t('admin.users.password')} <input type="password" name="password" autocomplete="new-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <label>
          {t('admin.users.tier')}{' '}
          <select name="tier" value={tier} onChange={(e) => setTier(e.currentTarget.value)}>
            <option value="">{t('admin.users.noTier')}</option>
            {tiers.map((tr) => (
              <option value={tr.code}>{tr.name}</option>
            ))}
          </select>
        </label>
        <button type="submit">{t('admin.users.add')}</button>
      </form>
      <form class="row" onSubmit={(e) => void setUserPassword(e)} aria-label={t('admin.users.resetLegend')}>
        <label>
          {t('admin.users.name')}{' '}
          <select name="user" required value={resetting} onChange={(e) => setResetting(e.currentTarget.value)}>
            <option value="">{t('admin.choose')}</option>
            {people
              .filter((u) => u.role !== 'admin')
              .map((u) => (
                <option value={u.username}>{u.username}</option>
              ))}
          </select>
        </label>
        <label>
          {t('admin.users.newPassword')} <input type="password" name="new-password" autocomplete="new-password" required value={newPassword} onInput={(e) => setNewPassword(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('admin.users.setPassword')}</button>
      </form>
      <Feedback error={error} note={note} />
    </AdminPanel>
  );
}
