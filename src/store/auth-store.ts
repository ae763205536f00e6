import type { Grant, Permission, Role, User } from '../model/access.js';
import type { Prefs, Reservation, Tier } from '../model/account.js';
import type { TokenScope } from '../model/token-scope.js';

export interface Token {
  token: string;
  label: string;
  /** Unix seconds; 0 never expires. */
  expires: number;
  /** Unix seconds of the last use (0: never used) and the address it came from. */
  lastAccess: number;
  lastOrigin: string;
  /** Made from server.yml (`auth-tokens`): changed only there. */
  provisioned?: boolean;
  /** What the token is limited to (model/token-scope.ts); none: all its user may do. Fixed when made. */
  scopes?: TokenScope[];
}

/** An e-mail address of an account (ntfy 2.25): verified (at most one of them primary), or waiting for its link to be followed. */
export interface AccountEmail {
  address: string;
  primary: boolean;
  pending: boolean;
}

/** What a magic link (ntfy 2.25) does once followed. */
export type MagicLinkKind = 'email-verify' | 'password-reset';

/**
 * A magic link as stored: found by `selector`, the public half of its token, and checked
 * against `hash`, the SHA-256 (hex) of the secret half (model/magic-link.ts). The secret
 * itself is never stored, so a leaked store opens no account.
 */
export interface MagicLink {
  selector: string;
  hash: string;
  kind: MagicLinkKind;
  username: string;
  /** The address being verified; '' for a password reset. */
  email: string;
  /** Unix seconds; the link is void after it. */
  expires: number;
}

/** One access entry of a user (or `*`, everyone): a topic or pattern and what it allows. */
export interface AccessEntry {
  user: string;
  topic: string;
  permission: Permission;
}

/** A user as another server kept it (`tocsin import ntfy`): credentials and account as they are. */
export interface ImportedUser {
  name: string;
  /** bcrypt hash, kept: the user's password keeps working. */
  hash: string;
  role: Role;
  /** Code of a tier the store holds, or none. */
  tier?: string;
  /** Kept, so the web app's account sync topic stays the same. */
  syncTopic: string;
  prefs: Prefs;
  /** Unix seconds. */
  created: number;
}

/**
 * Where a membership comes from: the CLI or the API, server.yml (`auth-groups`), or an
 * identity's groups — a trusted proxy's groups header, or single sign-on's groups claim —
 * kept equal to that list at each request or sign-on (syncMemberships).
 */
export type MembershipSource = 'manual' | 'provisioned' | 'header';

/** A named group (issue 38): its entries are held by `*NAME` (model/access.ts groupHolder). */
export interface Group {
  name: string;
  /** Member names, sorted. */
  members: string[];
  /** Made from server.yml (`auth-groups`): removed only there. */
  provisioned: boolean;
}

/** One user's membership of a named group. */
export interface Membership {
  group: string;
  user: string;
}

/** What server.yml provisions (`auth-users`, `auth-access`, `auth-tokens`, `auth-groups`), checked by the caller. */
export interface Provisioning {
  users: { name: string; hash: string; role: Role }[];
  grants: { user: string; topic: string; permission: Permission }[];
  tokens: { user: string; token: string; label: string }[];
  /** None given: none (so earlier provisioned groups go). */
  groups?: { name: string; members: string[] }[];
}

/**
 * The users, access entries and tokens of access control (the `auth-file`). Contract, for
 * every implementation:
 * - Reads see the changes of every instance: the CLI changes the store from another
 *   process while the server runs, and several nodes may share one store. An
 *   implementation may remember reads, so long as a read that starts its
 *   `staleReadBoundMs` or more after another instance's change resolved sees that
 *   change, and a read after this instance's own change sees it at once. How remembered reads learn of other
 *   instances' changes is each backend's own business.
 * - Each change is atomic and committed when its promise resolves (the CLI exits right
 *   after); one that throws leaves nothing of itself behind.
 * - Names are checked by the callers; a missing user makes a change throw `NotFound`.
 */
export interface AuthStore {
  /**
   * How long after another instance's change resolved a read may still answer as before,
   * each backend's own. Access control decides every request from these reads, so this
   * is how long a revoked password, token or grant may still be honoured by another node.
   */
  readonly staleReadBoundMs: number;
  user(name: string): Promise<User | undefined>;
  /** The owner of an unexpired token, with the token's `scopes` when it has any. */
  userByToken(token: string): Promise<User | undefined>;
  touchToken(token: string, when: number, origin: string): Promise<void>;
  /**
   * The entry that decides `topic` for `username`, as ntfy orders them: the user's own
   * entries and those of their groups (`*authenticated` and the named groups they are in)
   * before everyone's, then the longest (most specific) pattern, the user's own before a
   * group's at equal length, then write before read. Patterns match case-sensitively, `*`
   * the only wildcard (ntfy 2.24).
   */
  permission(username: string, topic: string): Promise<Permission | undefined>;
  /**
   * Every access entry that counts, in no particular order: what `permission` decides
   * from (auth-access-cache builds its table from it, auth/access-table.ts). Remembered
   * like the other reads, until a change (the same array again until then, so a caller
   * may key what it derives on its identity), and kept apart from the request keys, so a
   * flood of made-up names cannot make each request read the whole table.
   */
  accessEntries(): Promise<readonly AccessEntry[]>;
  /** Every membership of a named group, in no particular order: remembered as `accessEntries` is, for the same table. */
  memberships(): Promise<readonly Membership[]>;
  /** The named groups by name. */
  groups(): Promise<Group[]>;
  /** `AlreadyExists` when there is one of that name (the caller checks the name). */
  addGroup(name: string): Promise<void>;
  /** Removes a group with its members and access entries: `NotFound` for none, `Provisioned` for a provisioned one. */
  removeGroup(name: string): Promise<void>;
  /** `NotFound` for a missing group or user; a member already stays as they are. */
  addMember(group: string, user: string): Promise<void>;
  /** `NotFound` unless the user is a member, `Provisioned` when server.yml made them one. */
  removeMember(group: string, user: string): Promise<void>;
  /**
   * Makes the user's header memberships (a proxy's groups header, or a single sign-on's
   * groups claim) those of `groups` that exist, leaving the others (manual, provisioned) as
   * they are; `NotFound` for a missing user.
   */
  syncMemberships(user: string, groups: readonly string[]): Promise<void>;
  users(): Promise<User[]>;
  /** How many users there are (ntfy's ntfy_users_total, without ntfy's row for everyone). */
  userCount(): Promise<number>;
  /**
   * Makes the provisioned users, entries and tokens exactly `p`, in one transaction, as
   * ntfy 2.14: earlier provisioned ones no longer listed go, listed ones are added or
   * brought up to date; what the CLI or the API made stays.
   */
  provision(p: Provisioning): Promise<void>;
  addUser(name: string, hash: string, role: Role): Promise<void>;
  /**
   * Adds a user made on another server as it is (hash, sync topic, creation time). A user
   * of that name already here is left as it is; answers whether this one was added.
   * Throws `NotFound` for a tier the store does not hold.
   */
  importUser(user: ImportedUser): Promise<boolean>;
  removeUser(name: string): Promise<void>;
  /** This and the next two throw `Provisioned` for a provisioned user. */
  changePassword(name: string, hash: string): Promise<void>;
  changeRole(name: string, role: Role): Promise<void>;
  /** Puts the user on tier `code`, or on none with undefined. */
  changeTier(name: string, code: string | undefined): Promise<void>;
  changePrefs(name: string, prefs: Prefs): Promise<void>;
  /** A user's entries (or everyone's, with `*`, or a group's, with `*NAME`), most specific first. */
  grants(username: string): Promise<Grant[]>;
  /** `NotFound` for a missing user or named group. */
  allowAccess(username: string, topic: string, permission: Permission): Promise<void>;
  /** Removes one entry, all of a user's, or every entry of every user. */
  resetAccess(username?: string, topic?: string): Promise<void>;
  /** The user's reservations, by topic. */
  reservations(username: string): Promise<Reservation[]>;
  /** The user who reserved `topic` exactly, if anyone did. */
  reservationOwner(topic: string): Promise<string | undefined>;
  /** Whether an entry of anyone but `username`'s own reservations covers `topic` (ntfy's AllowReservation). */
  othersHaveAccess(username: string, topic: string): Promise<boolean>;
  /** Reserves `topic`: read-write for the owner and `everyone` for everyone, in one transaction. */
  addReservation(username: string, topic: string, everyone: Permission): Promise<void>;
  removeReservations(username: string, topics: readonly string[]): Promise<void>;
  /**
   * Adds a token and, in the same transaction, keeps the user at `tokenMaxCount`: the
   * tokens that expire first go (ntfy's CreateToken). The new token, never-expiring and
   * provisioned ones are kept before any other; among equal expiries the older goes.
   */
  addToken(username: string, token: Token): Promise<void>;
  tokens(username: string): Promise<Token[]>;
  /** Changes what is given; undefined when the user has no such token. */
  changeToken(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined>;
  /** Whether the token existed; `Provisioned` for a provisioned one. */
  removeToken(username: string, token: string): Promise<boolean>;
  removeExpiredTokens(now: number): Promise<void>;
  /** The user's verified phone numbers (`+` and digits), ordered by their text as ntfy's query returns them. */
  phoneNumbers(username: string): Promise<string[]>;
  /** Adds a verified number; `AlreadyExists` when the user has it. A user's numbers go with the user. */
  addPhoneNumber(username: string, number: string): Promise<void>;
  /** Removes one of the user's numbers; nothing happens when they have no such number (as ntfy). */
  removePhoneNumber(username: string, number: string): Promise<void>;
  /**
   * The user's addresses: verified ones by their text, then those waiting for an
   * unexpired verification link, by their text.
   */
  emails(username: string): Promise<AccountEmail[]>;
  /**
   * Stores a magic link, replacing, in the same transaction, the user's earlier link of the
   * same scope: for `email-verify` the one for the same address, for `password-reset` any.
   * `NotFound` for a missing user. A user's links go with the user.
   */
  addMagicLink(link: MagicLink): Promise<void>;
  /** The link of `selector`, expired or not (the caller checks kind, expiry and hash). */
  magicLink(selector: string): Promise<MagicLink | undefined>;
  /**
   * Follows an e-mail verification link, once: in one transaction the link goes, its address
   * joins the user's verified ones, and becomes their primary if they have none and it is
   * no other account's primary. False when the link was already gone (a concurrent use won).
   */
  verifyEmail(selector: string): Promise<boolean>;
  /**
   * Follows a password-reset link, once: the link goes and the user's password hash becomes
   * `hash`, in one transaction. False when the link was already gone; `Provisioned` (nothing
   * changed) for a provisioned user.
   */
  resetPassword(selector: string, hash: string): Promise<boolean>;
  /** Removes a verified address (a primary one leaves the user without) and its pending link; nothing happens when there is neither. */
  removeEmail(username: string, address: string): Promise<void>;
  /** Makes a verified address the user's primary: `NotFound` unless verified on this account, `AlreadyExists` when another account's primary. */
  setPrimaryEmail(username: string, address: string): Promise<void>;
  /** The user whose primary address this is (at most one is). */
  userByPrimaryEmail(address: string): Promise<User | undefined>;
  removeExpiredMagicLinks(now: number): Promise<void>;
  tiers(): Promise<Tier[]>;
  tier(code: string): Promise<Tier | undefined>;
  /** Adds a tier, or replaces the one with the same code (throws `AlreadyExists` only with `replace` false). */
  putTier(tier: Tier, replace: boolean): Promise<void>;
  /** Throws `InUse` while a user is on it. */
  removeTier(code: string): Promise<void>;
  close(): Promise<void>;
}

export class NotFound extends Error {}
export class AlreadyExists extends Error {}
export class InUse extends Error {}
/** A provisioned user or token: server.yml owns it, the CLI and the API may not change it. */
export class Provisioned extends Error {
  constructor(readonly what: 'user' | 'token' | 'group' | 'group member') {
    super(`cannot change or delete provisioned ${what}`);
  }
}
