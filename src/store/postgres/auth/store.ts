import type pg from 'pg';
import { holderGroup, isBuiltIn, type Grant, type Permission, type Role, type User } from '../../../model/access.js';
import type { Prefs, Reservation, Tier } from '../../../model/account.js';
import type { AccessEntry, AccountEmail, AuthStore, Group, ImportedUser, MagicLink, Membership, Provisioning, Token } from '../../auth-store.js';
import { staleReadBoundMs } from '../../polled-read-cache.js';
import { AuthDb } from './auth-db.js';
import { Emails } from './emails.js';
import { Grants } from './grants.js';
import { Groups } from './groups.js';
import { Phones } from './phones.js';
import { Reservations } from './reservations.js';
import { Tiers } from './tiers.js';
import { Tokens } from './tokens.js';
import { Users } from './users.js';

/**
 * Access control on PostgreSQL, shared by every node on the database (as the SQLite
 * auth-store, one part per table in this folder). Each change is one transaction
 * (AuthDb.change), which makes this instance forget its remembered reads and the others
 * learn of it within `staleReadBoundMs`; provisioning is one transaction too.
 */
export class PostgresAuthStore implements AuthStore {
  readonly staleReadBoundMs = staleReadBoundMs;
  private readonly db: AuthDb;
  private readonly tierTable: Tiers;
  private readonly grantTable: Grants;
  private readonly userTable: Users;
  private readonly reservationTable: Reservations;
  private readonly tokenTable: Tokens;
  private readonly phoneTable: Phones;
  private readonly emailTable: Emails;
  private readonly groupTable: Groups;

  /** On the pool of a store whose schema is open (schema.ts); `close` ends the pool only when given `owned`. */
  constructor(
    pool: pg.Pool,
    private readonly owned?: pg.Pool,
  ) {
    this.db = new AuthDb(pool);
    this.tierTable = new Tiers(this.db);
    this.grantTable = new Grants(this.db);
    this.userTable = new Users(this.db, this.tierTable, this.grantTable);
    this.reservationTable = new Reservations(this.db, this.grantTable);
    this.tokenTable = new Tokens(this.db, this.userTable);
    this.phoneTable = new Phones(this.db, this.userTable);
    this.emailTable = new Emails(this.db, this.userTable);
    this.groupTable = new Groups(this.db, this.userTable, this.grantTable);
  }

  user(name: string): Promise<User | undefined> {
    return this.userTable.find(name);
  }

  userByToken(token: string): Promise<User | undefined> {
    return this.tokenTable.userOf(token);
  }

  touchToken(token: string, when: number, origin: string): Promise<void> {
    return this.tokenTable.touch(token, when, origin);
  }

  permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.grantTable.permission(username, topic);
  }

  accessEntries(): Promise<readonly AccessEntry[]> {
    return this.grantTable.all();
  }

  memberships(): Promise<readonly Membership[]> {
    return this.groupTable.memberships();
  }

  groups(): Promise<Group[]> {
    return this.groupTable.all();
  }

  addGroup(name: string): Promise<void> {
    return this.groupTable.add(name);
  }

  removeGroup(name: string): Promise<void> {
    return this.groupTable.remove(name);
  }

  addMember(group: string, user: string): Promise<void> {
    return this.groupTable.addMember(group, user);
  }

  removeMember(group: string, user: string): Promise<void> {
    return this.groupTable.removeMember(group, user);
  }

  syncMemberships(user: string, groups: readonly string[]): Promise<void> {
    return this.groupTable.sync(user, groups);
  }

  users(): Promise<User[]> {
    return this.userTable.all();
  }

  userCount(): Promise<number> {
    return this.userTable.count();
  }

  provision(p: Provisioning): Promise<void> {
    return this.db.change(async (c) => {
      await this.userTable.provision(c, p.users);
      await this.groupTable.provision(c, p.groups ?? []);
      await this.grantTable.provision(c, p.grants);
      await this.tokenTable.provision(c, p.tokens);
    });
  }

  addUser(name: string, hash: string, role: Role): Promise<void> {
    return this.userTable.add(name, hash, role);
  }

  importUser(u: ImportedUser): Promise<boolean> {
    return this.userTable.import(u);
  }

  removeUser(name: string): Promise<void> {
    return this.userTable.remove(name);
  }

  changePassword(name: string, hash: string): Promise<void> {
    return this.userTable.changePassword(name, hash);
  }

  changeRole(name: string, role: Role): Promise<void> {
    return this.userTable.changeRole(name, role);
  }

  changeTier(name: string, code: string | undefined): Promise<void> {
    return this.userTable.changeTier(name, code);
  }

  changePrefs(name: string, prefs: Prefs): Promise<void> {
    return this.userTable.changePrefs(name, prefs);
  }

  grants(username: string): Promise<Grant[]> {
    return this.grantTable.of(username);
  }

  allowAccess(username: string, topic: string, p: Permission): Promise<void> {
    return this.db.change(async (c) => {
      const group = holderGroup(username);
      if (group !== undefined) await this.groupTable.mustExist(c, group);
      else if (!isBuiltIn(username)) await this.userTable.mustExist(c, username);
      await this.grantTable.put(c, username, topic, p, null);
    });
  }

  resetAccess(username?: string, topic?: string): Promise<void> {
    return this.db.change((c) => this.grantTable.reset(c, username, topic));
  }

  reservations(username: string): Promise<Reservation[]> {
    return this.reservationTable.of(username);
  }

  reservationOwner(topic: string): Promise<string | undefined> {
    return this.reservationTable.owner(topic);
  }

  othersHaveAccess(username: string, topic: string): Promise<boolean> {
    return this.reservationTable.othersHaveAccess(username, topic);
  }

  addReservation(username: string, topic: string, everyoneMay: Permission): Promise<void> {
    return this.reservationTable.add(username, topic, everyoneMay);
  }

  removeReservations(username: string, topics: readonly string[]): Promise<void> {
    return this.reservationTable.remove(username, topics);
  }

  addToken(username: string, t: Token): Promise<void> {
    return this.tokenTable.add(username, t);
  }

  tokens(username: string): Promise<Token[]> {
    return this.tokenTable.of(username);
  }

  changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    return this.tokenTable.change(username, token, change);
  }

  removeToken(username: string, token: string): Promise<boolean> {
    return this.tokenTable.remove(username, token);
  }

  removeExpiredTokens(now: number): Promise<void> {
    return this.tokenTable.removeExpired(now);
  }

  phoneNumbers(username: string): Promise<string[]> {
    return this.phoneTable.of(username);
  }

  addPhoneNumber(username: string, number: string): Promise<void> {
    return this.phoneTable.add(username, number);
  }

  removePhoneNumber(username: string, number: string): Promise<void> {
    return this.phoneTable.remove(username, number);
  }

  emails(username: string): Promise<AccountEmail[]> {
    return this.emailTable.of(username);
  }

  addMagicLink(link: MagicLink): Promise<void> {
    return this.emailTable.addLink(link);
  }

  magicLink(selector: string): Promise<MagicLink | undefined> {
    return this.emailTable.link(selector);
  }

  verifyEmail(selector: string): Promise<boolean> {
    return this.emailTable.verify(selector);
  }

  resetPassword(selector: string, hash: string): Promise<boolean> {
    return this.emailTable.resetPassword(selector, hash);
  }

  removeEmail(username: string, address: string): Promise<void> {
    return this.emailTable.remove(username, address);
  }

  setPrimaryEmail(username: string, address: string): Promise<void> {
    return this.emailTable.setPrimary(username, address);
  }

  async userByPrimaryEmail(address: string): Promise<User | undefined> {
    const owner = await this.emailTable.primaryOwner(address);
    return owner === undefined ? undefined : this.userTable.find(owner);
  }

  removeExpiredMagicLinks(now: number): Promise<void> {
    return this.emailTable.removeExpiredLinks(now);
  }

  tiers(): Promise<Tier[]> {
    return this.tierTable.all();
  }

  tier(code: string): Promise<Tier | undefined> {
    return this.tierTable.find(code);
  }

  putTier(t: Tier, replace: boolean): Promise<void> {
    return this.tierTable.put(t, replace);
  }

  removeTier(code: string): Promise<void> {
    return this.tierTable.remove(code);
  }

  async close(): Promise<void> {
    this.db.close();
    await this.owned?.end();
  }
}
