import { useState } from 'preact/hooks';
import { api } from '../../lib/api.js';
import { t } from '../../lib/i18n.js';
import { useAction } from '../account/useAction.js';
import { reloadAdmin, type AdminData } from './admin-data.js';
import { AdminPanel, RecordTable, UserSelect } from './AdminPanel.js';
import { Feedback } from './Feedback.js';

/** Named groups and their members: add and remove both (a group's grants are in the grants section). */
export function GroupsSection({ data: { groups, users } }: { data: AdminData }) {
  const { error, note, run } = useAction(reloadAdmin);
  const [name, setName] = useState('');
  const [group, setGroup] = useState('');
  const [member, setMember] = useState('');
  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (await run(() => api('POST', '/v1/groups', { body: { name } }), t('admin.groups.added', { group: name }))) setName('');
  };
  const addMember = async (e: Event): Promise<void> => {
    e.preventDefault();
    await run(() => api('PUT', '/v1/groups/members', { body: { group, username: member } }), t('admin.groups.memberAdded', { user: member, group }));
  };
  const remove = (name: string): void => {
    if (window.confirm(t('admin.groups.confirmRemove', { group: name }))) void run(() => api('DELETE', '/v1/groups', { body: { name } }), t('admin.groups.removed', { group: name }));
  };
  const removeMember = (group: string, user: string): void => {
    if (window.confirm(t('admin.groups.confirmRemoveMember', { user, group }))) {
      void run(() => api('DELETE', '/v1/groups/members', { body: { group, username: user } }), t('admin.groups.memberRemoved', { user, group }));
    }
  };
  return (
    <AdminPanel heading={t('admin.groups.heading')}>
      {groups.length === 0 ? (
        <p class="muted">{t('admin.groups.none')}</p>
      ) : (
        <RecordTable columns={[t('admin.groups.group'), t('admin.groups.members')]}>
          {groups.map((g) => (
            <tr>
              <td>{g.name}</td>
              <td>
                {g.members.length === 0 && <span class="muted">{t('admin.groups.noMembers')}</span>}
                {g.members.map((m) => (
                  <span class="member">
                    {m}{' '}
                    <button type="button" aria-label={t('admin.groups.removeMember', { user: m, group: g.name })} onClick={() => removeMember(g.name, m)}>
                      ×
                    </button>{' '}
                  </span>
                ))}
              </td>
              <td>
                <button type="button" class="danger" aria-label={t('admin.groups.removeGroup', { group: g.name })} onClick={() => remove(g.name)}>
                  {t('admin.remove')}
                </button>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      <form class="row" onSubmit={(e) => void add(e)} aria-label={t('admin.groups.addLegend')}>
        <label>
          {t('admin.groups.name')} <input name="group-name" autocomplete="off" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('admin.groups.add')}</button>
      </form>
      <form class="row" onSubmit={(e) => void addMember(e)} aria-label={t('admin.groups.addMemberLegend')}>
        <label>
          {t('admin.groups.group')}{' '}
          <select name="group" required value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
            <option value="">{t('admin.choose')}</option>
            {groups.map((g) => (
              <option value={g.name}>{g.name}</option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.groups.member')}{' '}
          <UserSelect name="member" required users={users} value={member} onChange={setMember} />
        </label>
        <button type="submit">{t('admin.groups.addMember')}</button>
      </form>
      <Feedback error={error} note={note} />
    </AdminPanel>
  );
}
