import { holderGroup, isBuiltIn, type Grant, type Permission, type Role, type User } from '../../model/access.js';
import type { Prefs, Reservation, Tier } from '../../model/account.js';
import type { AccessEntry, AccountEmail, AuthStore, Group, ImportedUser, MagicLink, Membership, Provisioning, Token } from '../auth-store.js';
import { Emails } from './auth/emails.js';
import { AuthFile } from './auth/file.js';
import { Grants } from './auth/grants.js';
import { Groups } from './auth/groups.js';
import { Phones } from './auth/phones.js';
import { Reservations } from './auth/reservations.js';
import { Tiers } from './auth/tiers.js';
import { Tokens } from './auth/tokens.js';
import { Users } from './auth/users.js';

/**
 * The auth-file: its own SQLite database, apart from the cache, so it can be kept and
 * backed up on its own. The work is done by one part per table or concern in `auth/`,
 * over one shared connection (`AuthFile`); this class puts them behind the port and holds
 * what spans parts: provisioning's one transaction, and the user check of `allowAccess`.
 * SQLite answers synchronously; the port is async so other stores may not.
 */
export class SqliteAuthStore implements AuthStore {
  /** The read cache asks SQLite's data_version once per millisecond (read-cache.ts). */
  readonly staleReadBoundMs = 1;
  private readonly file: AuthFile;
  private readonly tierTable: Tiers;
  private readonly grantTable: Grants;
  private readonly userTable: Users;
  private readonly reservationTable: Reservations;
  private readonly tokenTable: Tokens;
  private readonly phoneTable: Phones;
  private readonly emailTable: Emails;
  private readonly groupTable: Groups;

  constructor(file: string) {
    this.file = new AuthFile(file);
    this.tierTable = new Tiers(this.file);
    this.grantTable = new Grants(this.file);
    this.userTable = new Users(this.file, this.tierTable, this.grantTable);
    this.reservationTable = new Reservations(this.file, this.grantTable);
    this.tokenTable = new Tokens(this.file, this.userTable);
    this.phoneTable = new Phones(this.file, this.userTable);
    this.emailTable = new Emails(this.file, this.userTable);
    this.groupTable = new Groups(this.file, this.userTable, this.grantTable);
  }

  /** Reads remembered now (for tests: bounded). */
  get memoSize(): number {
    return this.file.rememberedCount;
  }

  async user(name: string): Promise<User | undefined> {
    return this.userTable.find(name);
  }

  async userByToken(token: string): Promise<User | undefined> {
    return this.tokenTable.userOf(token);
  }

  async touchToken(token: string, when: number, origin: string): Promise<void> {
    this.tokenTable.touch(token, when, origin);
  }

  async permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.grantTable.permission(username, topic);
  }

  async accessEntries(): Promise<readonly AccessEntry[]> {
    return this.grantTable.all();
  }

  async memberships(): Promise<readonly Membership[]> {
    return this.groupTable.memberships();
  }

  async groups(): Promise<Group[]> {
    return this.groupTable.all();
  }

  async addGroup(name: string): Promise<void> {
    this.groupTable.add(name);
  }

  async removeGroup(name: string): Promise<void> {
    this.groupTable.remove(name);
  }

  async addMember(group: string, user: string): Promise<void> {
    this.groupTable.addMember(group, user);
  }

  async removeMember(group: string, user: string): Promise<void> {
    this.groupTable.removeMember(group, user);
  }

  async syncMemberships(user: string, groups: readonly string[]): Promise<void> {
    this.groupTable.sync(user, groups);
  }

  async users(): Promise<User[]> {
    return this.userTable.all();
  }

  async userCount(): Promise<number> {
    return this.userTable.count();
  }

  async provision(p: Provisioning): Promise<void> {
    this.file.transaction(() => {
      this.userTable.provision(p.users);
      this.groupTable.provision(p.groups ?? []);
      this.grantTable.provision(p.grants);
      this.tokenTable.provision(p.tokens);
    });
  }

  async addUser(name: string, hash: string, role: Role): Promise<void> {
    this.userTable.add(name, hash, role);
  }

  async importUser(u: ImportedUser): Promise<boolean> {
    return this.userTable.import(u);
  }

  async removeUser(name: string): Promise<void> {
    this.userTable.remove(name);
  }

  async changePassword(name: string, hash: string): Promise<void> {
    this.userTable.changePassword(name, hash);
  }

  async changeRole(name: string, role: Role): Promise<void> {
    this.userTable.changeRole(name, role);
  }

  async changeTier(name: string, code: string | undefined): Promise<void> {
    this.userTable.changeTier(name, code);
  }

  async changePrefs(name: string, prefs: Prefs): Promise<void> {
    this.userTable.changePrefs(name, prefs);
  }

  async grants(username: string): Promise<Grant[]> {
    return this.grantTable.of(username);
  }

  async allowAccess(username: string, topic: string, p: Permission): Promise<void> {
    const group = holderGroup(username);
    if (group !== undefined) this.groupTable.mustExist(group);
    else if (!isBuiltIn(username)) this.userTable.mustExist(username);
    this.grantTable.put(username, topic, p, null);
  }

  async resetAccess(username?: string, topic?: string): Promise<void> {
    this.grantTable.reset(username, topic);
  }

  async reservations(username: string): Promise<Reservation[]> {
    return this.reservationTable.of(username);
  }

  async reservationOwner(topic: string): Promise<string | undefined> {
    return this.reservationTable.owner(topic);
  }

  async othersHaveAccess(username: string, topic: string): Promise<boolean> {
    return this.reservationTable.othersHaveAccess(username, topic);
  }

  async addReservation(username: string, topic: string, everyoneMay: Permission): Promise<void> {
    this.reservationTable.add(username, topic, everyoneMay);
  }

  async removeReservations(username: string, topics: readonly string[]): Promise<void> {
    this.reservationTable.remove(username, topics);
  }

  async addToken(username: string, t: Token): Promise<void> {
    this.tokenTable.add(username, t);
  }

  async tokens(username: string): Promise<Token[]> {
    return this.tokenTable.of(username);
  }

  async changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    return this.tokenTable.change(username, token, change);
  }

  async removeToken(username: string, token: string): Promise<boolean> {
    return this.tokenTable.remove(username, token);
  }

  async removeExpiredTokens(now: number): Promise<void> {
    this.tokenTable.removeExpired(now);
  }

  async phoneNumbers(username: string): Promise<string[]> {
    return this.phoneTable.of(username);
  }

  async addPhoneNumber(username: string, number: string): Promise<void> {
    this.phoneTable.add(username, number);
  }

  async removePhoneNumber(username: string, number: string): Promise<void> {
    this.phoneTable.remove(username, number);
  }

  async emails(username: string): Promise<AccountEmail[]> {
    return this.emailTable.of(username);
  }

  async addMagicLink(link: MagicLink): Promise<void> {
    this.emailTable.addLink(link);
  }

  async magicLink(selector: string): Promise<MagicLink | undefined> {
    return this.emailTable.link(selector);
  }

  async verifyEmail(selector: string): Promise<boolean> {
    return this.emailTable.verify(selector);
  }

  async resetPassword(selector: string, hash: string): Promise<boolean> {
    return this.emailTable.resetPassword(selector, hash);
  }

  async removeEmail(username: string, address: string): Promise<void> {
    this.emailTable.remove(username, address);
  }

  async setPrimaryEmail(username: string, address: string): Promise<void> {
    this.emailTable.setPrimary(username, address);
  }

  async userByPrimaryEmail(address: string): Promise<User | undefined> {
    const owner = this.emailTable.primaryOwner(address);
    return owner === undefined ? undefined : this.userTable.find(owner);
  }

  async removeExpiredMagicLinks(now: number): Promise<void> {
    this.emailTable.removeExpiredLinks(now);
  }

  async tiers(): Promise<Tier[]> {
    return this.tierTable.all();
  }

  async tier(code: string): Promise<Tier | undefined> {
    return this.tierTable.find(code);
  }

  async putTier(t: Tier, replace: boolean): Promise<void> {
    this.tierTable.put(t, replace);
  }

  async removeTier(code: string): Promise<void> {
    this.tierTable.remove(code);
  }

  async close(): Promise<void> {
    this.file.close();
  }
}
