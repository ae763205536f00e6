import type { Db } from 'mongodb';
import { holderGroup, isBuiltIn, type Grant, type Permission, type Role, type User } from '../../../model/access.js';
import type { Prefs, Reservation, Tier } from '../../../model/account.js';
import type { AccessEntry, AccountEmail, AuthStore, Group, ImportedUser, MagicLink, Membership, Provisioning, Token } from '../../auth-store.js';
import { AuthDb } from './auth-db.js';
import { builtInHolder } from './collections.js';
import { Emails } from './emails.js';
import { Grants } from './grants.js';
import { Groups } from './groups.js';
import { Phones } from './phones.js';
import { staleReadBoundMs } from '../../polled-read-cache.js';
import { Reservations } from './reservations.js';
import { Tiers } from './tiers.js';
import { Tokens } from './tokens.js';
import { Users } from './users.js';

/**
 * Access control on MongoDB, shared by every node on the database (as the SQLite
 * auth-store, one part per concern in this folder). Each change of the port runs through
 * `AuthDb.change`, which makes this instance forget its remembered reads and the others
 * learn of it within `staleReadBoundMs`. There are no multi-document transactions (not on
 * FerretDB 1.24), so a change of several documents writes them in an order a crash
 * leaves harmless; each part says which.
 */
export class MongoAuthStore implements AuthStore {
  readonly staleReadBoundMs = staleReadBoundMs;
  private readonly tierTable: Tiers;
  private readonly grantTable: Grants;
  private readonly userTable: Users;
  private readonly reservationTable: Reservations;
  private readonly tokenTable: Tokens;
  private readonly phoneTable: Phones;
  private readonly emailTable: Emails;
  private readonly groupTable: Groups;

  /**
   * Opens access control on `db`. Its client stays the caller's, unless given as `client`:
   * then `close` closes it too (the admin commands open the store alone).
   */
  static async open(db: Db, client?: { close(): Promise<void> }): Promise<MongoAuthStore> {
    return new MongoAuthStore(await AuthDb.open(db), client);
  }

  private constructor(
    private readonly db: AuthDb,
    private readonly client?: { close(): Promise<void> },
  ) {
    this.tierTable = new Tiers(db);
    this.userTable = new Users(db, this.tierTable);
    this.groupTable = new Groups(db, this.userTable);
    this.grantTable = new Grants(db, this.userTable, this.groupTable);
    this.reservationTable = new Reservations(db, this.grantTable, this.userTable);
    this.tokenTable = new Tokens(db, this.userTable);
    this.phoneTable = new Phones(db, this.userTable);
    this.emailTable = new Emails(db, this.userTable);
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
    return this.db.change(() => this.groupTable.add(name));
  }

  removeGroup(name: string): Promise<void> {
    return this.db.change(() => this.groupTable.remove(name));
  }

  addMember(group: string, user: string): Promise<void> {
    return this.db.change(() => this.groupTable.addMember(group, user));
  }

  removeMember(group: string, user: string): Promise<void> {
    return this.db.change(() => this.groupTable.removeMember(group, user));
  }

  syncMemberships(user: string, groups: readonly string[]): Promise<void> {
    return this.db.change(() => this.groupTable.sync(user, groups));
  }

  users(): Promise<User[]> {
    return this.userTable.all();
  }

  userCount(): Promise<number> {
    return this.userTable.count();
  }

  /**
   * Users, then groups, then entries, then tokens, each part adding and updating what is listed before
   * it removes what no longer is. Not one transaction as on SQLite: a crash may leave part
   * of it done, which the next start's provisioning (the same, idempotent) completes.
   */
  provision(p: Provisioning): Promise<void> {
    return this.db.change(async () => {
      await this.userTable.provision(p.users);
      await this.groupTable.provision(p.groups ?? []);
      await this.grantTable.provision(p.grants);
      await this.tokenTable.provision(p.tokens);
    });
  }

  addUser(name: string, hash: string, role: Role): Promise<void> {
    return this.db.change(() => this.userTable.add(name, hash, role));
  }

  importUser(u: ImportedUser): Promise<boolean> {
    return this.db.change(() => this.userTable.import(u));
  }

  removeUser(name: string): Promise<void> {
    return this.db.change(() => this.userTable.remove(name));
  }

  changePassword(name: string, hash: string): Promise<void> {
    return this.db.change(() => this.userTable.changePassword(name, hash));
  }

  changeRole(name: string, role: Role): Promise<void> {
    return this.db.change(() => this.userTable.changeRole(name, role));
  }

  changeTier(name: string, code: string | undefined): Promise<void> {
    return this.db.change(() => this.userTable.changeTier(name, code));
  }

  changePrefs(name: string, prefs: Prefs): Promise<void> {
    return this.db.change(() => this.userTable.changePrefs(name, prefs));
  }

  grants(username: string): Promise<Grant[]> {
    return this.grantTable.of(username);
  }

  allowAccess(username: string, topic: string, p: Permission): Promise<void> {
    return this.db.change(async () => {
      const group = holderGroup(username);
      if (group !== undefined) await this.groupTable.gid(group); // NotFound unless it exists
      const holder = isBuiltIn(username) || group !== undefined ? builtInHolder(username) : await this.userTable.holder(username);
      await this.grantTable.put(holder, topic, p, null);
    });
  }

  resetAccess(username?: string, topic?: string): Promise<void> {
    return this.db.change(() => this.grantTable.reset(username, topic));
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
    return this.db.change(() => this.reservationTable.add(username, topic, everyoneMay));
  }

  removeReservations(username: string, topics: readonly string[]): Promise<void> {
    return this.db.change(() => this.reservationTable.remove(username, topics));
  }

  addToken(username: string, t: Token): Promise<void> {
    return this.db.change(() => this.tokenTable.add(username, t));
  }

  tokens(username: string): Promise<Token[]> {
    return this.tokenTable.of(username);
  }

  changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    return this.db.change(() => this.tokenTable.change(username, token, change));
  }

  removeToken(username: string, token: string): Promise<boolean> {
    return this.db.change(() => this.tokenTable.remove(username, token));
  }

  /**
   * Not announced as a change: housekeeping runs it every manager-interval, and what it
   * removes decides nothing, as every read checks a token's expiry itself (tokens.ts).
   */
  removeExpiredTokens(now: number): Promise<void> {
    return this.tokenTable.removeExpired(now);
  }

  phoneNumbers(username: string): Promise<string[]> {
    return this.phoneTable.of(username);
  }

  addPhoneNumber(username: string, number: string): Promise<void> {
    return this.db.change(() => this.phoneTable.add(username, number));
  }

  removePhoneNumber(username: string, number: string): Promise<void> {
    return this.db.change(() => this.phoneTable.remove(username, number));
  }

  emails(username: string): Promise<AccountEmail[]> {
    return this.emailTable.of(username);
  }

  addMagicLink(link: MagicLink): Promise<void> {
    return this.db.change(() => this.emailTable.addLink(link));
  }

  magicLink(selector: string): Promise<MagicLink | undefined> {
    return this.emailTable.link(selector);
  }

  verifyEmail(selector: string): Promise<boolean> {
    return this.db.change(() => this.emailTable.verify(selector));
  }

  resetPassword(selector: string, hash: string): Promise<boolean> {
    return this.db.change(() => this.emailTable.resetPassword(selector, hash));
  }

  removeEmail(username: string, address: string): Promise<void> {
    return this.db.change(() => this.emailTable.remove(username, address));
  }

  setPrimaryEmail(username: string, address: string): Promise<void> {
    return this.db.change(() => this.emailTable.setPrimary(username, address));
  }

  async userByPrimaryEmail(address: string): Promise<User | undefined> {
    const owner = await this.emailTable.primaryOwner(address);
    return owner === undefined ? undefined : this.userTable.find(owner);
  }

  removeExpiredMagicLinks(now: number): Promise<void> {
    return this.db.change(() => this.emailTable.removeExpiredLinks(now));
  }

  tiers(): Promise<Tier[]> {
    return this.tierTable.all();
  }

  tier(code: string): Promise<Tier | undefined> {
    return this.tierTable.find(code);
  }

  putTier(t: Tier, replace: boolean): Promise<void> {
    return this.db.change(() => this.tierTable.put(t, replace));
  }

  removeTier(code: string): Promise<void> {
    return this.db.change(() => this.tierTable.remove(code));
  }

  /** Stops polling, and closes the client if it was given to `open`. */
  async close(): Promise<void> {
    this.db.close();
    await this.client?.close();
  }
}
