import { api } from '../../lib/api.js';
import { Store } from '../../lib/store.js';

/** A topic (or pattern) and a permission word (read-write, read-only, write-only, deny-all), as the admin API lists them. */
export interface Grant {
  topic: string;
  permission: string;
}

/** GET /v1/users: a user, or `*` (everyone, role anonymous). */
export interface AdminUser {
  username: string;
  role: string;
  tier?: string;
  grants?: Grant[];
}

export interface AdminGroup {
  name: string;
  members: string[];
  grants?: Grant[];
  provisioned?: boolean;
}

/** GET /v1/tiers: limits keyed as /v1/account's, in seconds and bytes. */
export interface AdminTier {
  code: string;
  name: string;
  limits: Record<string, number>;
}

/** What the admin pages show, loaded together and again after each change. */
export interface AdminData {
  users: AdminUser[];
  groups: AdminGroup[];
  /** The grants of every logged-in user's group. */
  authenticated: Grant[];
  tiers: AdminTier[];
}

export const adminData = new Store<AdminData | undefined>(undefined);

/** The user name of everyone (anonymous visitors), as ntfy lists it. */
export const everyone = '*';

export async function reloadAdmin(): Promise<void> {
  const [users, groups, tiers] = await Promise.all([api<AdminUser[]>('GET', '/v1/users'), allGroups(), api<AdminTier[]>('GET', '/v1/tiers')]);
  adminData.set({ users, ...groups, tiers });
}

interface GroupPage {
  groups: AdminGroup[];
  next?: number;
  authenticated?: { grants: Grant[] };
}

/** Every page of GET /v1/groups (200 groups each). */
async function allGroups(): Promise<Pick<AdminData, 'groups' | 'authenticated'>> {
  const groups: AdminGroup[] = [];
  let page: GroupPage = { groups: [], next: 0 };
  let authenticated: Grant[] = [];
  while (page.next !== undefined) {
    page = await api<GroupPage>('GET', `/v1/groups?offset=${page.next}`);
    groups.push(...page.groups);
    authenticated = page.authenticated?.grants ?? authenticated;
  }
  return { groups, authenticated };
}
