import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { useStore } from '../../lib/store.js';
import { adminData, reloadAdmin } from './admin-data.js';
import { GrantsSection } from './GrantsSection.js';
import { GroupsSection } from './GroupsSection.js';
import { TiersSection } from './TiersSection.js';
import { UsersSection } from './UsersSection.js';
import { UserTokensSection } from './UserTokensSection.js';

/** The admin pages (issue 38): users, groups, grants, any user's tokens and tiers, through the admin API. */
export function AdminPage() {
  const data = useStore(adminData);
  const [error, setError] = useState('');
  useEffect(() => {
    void reloadAdmin().catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, []);
  if (!data) return error ? <p class="error">{error}</p> : <p class="empty muted">{t('account.loading')}</p>;
  return (
    <div class="account admin">
      <h2>{t('admin.heading')}</h2>
      <UsersSection data={data} />
      <GroupsSection data={data} />
      <GrantsSection data={data} />
      <UserTokensSection users={data.users} />
      <TiersSection tiers={data.tiers} />
    </div>
  );
}
