import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { account } from '../lib/account.js';
import { t } from '../lib/i18n.js';
import { session } from '../lib/session.js';
import { useStore } from '../lib/store.js';

/**
 * The admin pages' route: "admins only" for anyone else (the server refuses them anyway),
 * and for an admin the pages, a chunk of their own fetched on first visit, so the first
 * load of everyone else carries none of them.
 */
export function AdminRoute() {
  const current = useStore(account);
  const loggedIn = useStore(session) !== null;
  const [Page, setPage] = useState<ComponentType | undefined>(undefined);
  const isAdmin = current?.role === 'admin';
  useEffect(() => {
    if (isAdmin && !Page) void import('./admin/AdminPage.js').then((m) => setPage(() => m.AdminPage));
  }, [isAdmin, Page]);
  if (loggedIn && !current) return <p class="empty muted">{t('account.loading')}</p>;
  if (!isAdmin) return <p class="empty muted">{t('admin.only')}</p>;
  return Page ? <Page /> : <p class="empty muted">{t('account.loading')}</p>;
}
