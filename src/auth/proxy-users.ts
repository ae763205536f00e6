import type { ProxyAuthConfig } from '../config/schema.js';
import { groupNamePattern, parsePermission, usernamePattern, type Role, type User } from '../model/access.js';
import { errors } from '../model/errors.js';
import { LruMap } from '../model/lru-map.js';
import type { TokenBuckets } from '../model/token-buckets.js';
import type { AuthStore } from '../store/auth-store.js';
import { addVouchedUser } from './vouched-users.js';

/** ntfy's limit on a user name taken from the proxy header. */
export const maxProxyUsernameLength = 64;
/** The most groups auth-groups-header may list: a longer list is refused (40101), never cut, as a cut could drop the admin group. */
export const maxProxyGroups = 100;
/** Users whose last group sync is remembered; a forgotten one is synced again at their next request. */
const syncedLimit = 10_000;
/** A remembered sync is written again after this long, so a membership changed by the CLI meanwhile is put back. */
const resyncAfterMs = 60_000;

/** Who a trusted proxy's headers say the request is; `groups` only with auth-groups-header. */
export interface ProxyIdentity {
  username: string;
  groups?: readonly string[];
}

/**
 * The users a trusted reverse proxy names (auth-user-header, issue 38): checked names, made
 * on first sight with auth-user-auto-create, their role and header memberships kept equal
 * to auth-groups-header. Provisioned users are never changed.
 */
export class ProxyUsers {
  /** User (by sync topic, new for each user made) → the group list last written and when. */
  private readonly synced = new LruMap<string, { groups: string; at: number }>(syncedLimit);
  /** Users being made: a web app's first burst of requests makes one, charged once. */
  private readonly creating = new Map<string, Promise<User>>();

  constructor(
    private readonly store: AuthStore,
    private readonly options: ProxyAuthConfig,
    /** The sign-up limiter, per client address: auto-creation is a sign-up. */
    private readonly accountActions: TokenBuckets,
  ) {}

  /** The user the proxy names: 40101 for a bad name, too many groups, or an unknown user without auto-create; 42906 past the sign-up limit. */
  async user(identity: ProxyIdentity, origin: string): Promise<User> {
    const { username, groups } = identity;
    if (username.length > maxProxyUsernameLength || !usernamePattern.test(username)) throw errors.unauthorized;
    if (groups && groups.length > maxProxyGroups) throw errors.unauthorized;
    const user = (await this.store.user(username)) ?? (await this.created(username, origin));
    return groups === undefined || user.provisioned ? user : this.sync(user, groups);
  }

  private created(name: string, origin: string): Promise<User> {
    if (!this.options.autoCreate) throw errors.unauthorized;
    let pending = this.creating.get(name);
    if (!pending) {
      pending = this.create(name, origin).finally(() => this.creating.delete(name));
      this.creating.set(name, pending);
    }
    return pending;
  }

  private async create(name: string, origin: string): Promise<User> {
    if (!this.accountActions.take(origin)) throw errors.tooManyAccountActions;
    const added = await addVouchedUser(this.store, name, 'user');
    const access = parsePermission(this.options.autoCreateAccess);
    if (added && access) await this.store.allowAccess(name, '*', access);
    const user = await this.store.user(name);
    if (!user) throw errors.unauthorized; // removed at once by someone else
    return user;
  }

  /** Role and header memberships as the groups say: the role is read with the user anyway, memberships are written only when they changed. */
  private async sync(user: User, groups: readonly string[]): Promise<User> {
    const role: Role = this.options.adminGroup ? (groups.includes(this.options.adminGroup) ? 'admin' : 'user') : user.role;
    // Only names a Tocsin group can have are kept: an identity provider's "Domain Users" names none.
    const named = [...new Set(groups.filter((g) => groupNamePattern.test(g)))].sort();
    if (role !== user.role) await this.store.changeRole(user.name, role);
    const key = named.join(',');
    const last = this.synced.get(user.syncTopic);
    const now = Date.now();
    if (last?.groups !== key || now - last.at >= resyncAfterMs) {
      await this.store.syncMemberships(user.name, named);
      this.synced.set(user.syncTopic, { groups: key, at: now });
    }
    return role === user.role ? user : { ...user, role };
  }
}
