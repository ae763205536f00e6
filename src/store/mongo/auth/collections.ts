import { ObjectId, type Collection, type Db } from 'mongodb';
import { everyone, type Role } from '../../../model/access.js';
import type { Tier } from '../../../model/account.js';
import type { MagicLinkKind, MembershipSource } from '../../auth-store.js';
import { ensureIndexes } from '../indexes.js';
import { collection } from '../concerns.js';

/**
 * The documents of access control on MongoDB, one collection per table of the SQLite
 * auth-file. Every key that must be unique (user name, token, tier code, a user's entry
 * for a pattern, a change's number) is the document's `_id`: a unique insert is atomic on
 * MongoDB and on FerretDB 1.24 alike, where findOneAndUpdate and $inc are not, so no
 * uniqueness rests on a read before a write.
 */
export interface UserDoc {
  _id: string;
  /**
   * Made anew each time a user of this name is added. The user's entries and tokens carry
   * it, and count only while it is the user's: what a removal a crash cut short left
   * behind, or what a change racing the removal wrote after it, never passes to a later
   * user of the same name (users.ts).
   */
  uid: string;
  hash: string;
  role: Role;
  tier: string | null;
  syncTopic: string;
  /** The account settings as JSON text, as the auth-file keeps them: keys are the client's. */
  prefs: string;
  provisioned: boolean;
  created: number;
}

/** Whom an entry or token is for: a user's name and `uid`, or everyone (no uid). */
export interface Holder {
  name: string;
  uid: string | null;
}

export const everyoneHolder: Holder = { name: everyone, uid: null };

/** The holder of a built-in name's entries (everyone, every logged-in user): no user, so no `uid`. */
export const builtInHolder = (name: string): Holder => ({ name, uid: null });

/** One access entry; `_id` is `user/topic` (neither may hold a `/`). */
export interface AccessDoc {
  _id: string;
  user: string;
  /** The user's `uid` when the entry was written; null for everyone's. */
  uid: string | null;
  /** The pattern as written, `*` the wildcard. */
  topic: string;
  wild: boolean;
  read: boolean;
  write: boolean;
  /** The user whose reservation made the entry, and their `uid`; else both null. */
  owner: string | null;
  ownerUid: string | null;
  provisioned: boolean;
}

export interface TokenDoc {
  _id: string;
  user: string;
  /** The user's `uid` when the token was made. */
  uid: string;
  label: string;
  expires: number;
  lastAccess: number;
  lastOrigin: string;
  provisioned: boolean;
  /** What a topic-scoped token is limited to, as JSON (model/token-scope.ts); absent for an unscoped one. */
  scopes?: string;
  /** When it was added, for "among equal expiries the older goes" (ordered within a process, by second across). */
  added: ObjectId;
}

/** A verified phone number; `_id` is `uid/number`, so a later user of the same name never meets a removed one's. */
export interface PhoneDoc {
  _id: string;
  user: string;
  /** The user's `uid` when the number was added. */
  uid: string;
  number: string;
}

/** A verified e-mail address; `_id` is `uid/address`, as a phone number's. */
export interface EmailDoc {
  _id: string;
  user: string;
  uid: string;
  address: string;
}

/**
 * An account's primary address; `_id` is the address, so one account at most has it as
 * its primary by the unique insert alone.
 */
export interface PrimaryEmailDoc {
  _id: string;
  user: string;
  uid: string;
}

/** A magic link; `_id` is its selector (see auth-store.ts MagicLink). */
export interface MagicLinkDoc {
  _id: string;
  hash: string;
  kind: MagicLinkKind;
  user: string;
  uid: string;
  email: string;
  expires: number;
}

/**
 * A named group; `gid` is made anew each time a group of this name is added, and its
 * memberships count only while it is the group's (as a user's `uid`).
 */
export interface GroupDoc {
  _id: string;
  gid: string;
  provisioned: boolean;
}

/** A membership; `_id` is `gid/uid`, so it is one document per group and user, and never a later group's or user's. */
export interface MemberDoc {
  _id: string;
  group: string;
  gid: string;
  user: string;
  uid: string;
  source: MembershipSource;
}

export type TierDoc = Omit<Tier, 'code'> & { _id: string };

/** One document per change, numbered: what other instances poll (changes.ts). */
export interface ChangeDoc {
  _id: number;
  at: Date;
}

export interface AuthCollections {
  users: Collection<UserDoc>;
  access: Collection<AccessDoc>;
  tokens: Collection<TokenDoc>;
  tiers: Collection<TierDoc>;
  phones: Collection<PhoneDoc>;
  emails: Collection<EmailDoc>;
  primaryEmails: Collection<PrimaryEmailDoc>;
  magicLinks: Collection<MagicLinkDoc>;
  changes: Collection<ChangeDoc>;
  groups: Collection<GroupDoc>;
  members: Collection<MemberDoc>;
}

/** The collections, with the indexes of the lookups that are not by `_id`. */
export async function openCollections(db: Db): Promise<AuthCollections> {
  const c: AuthCollections = {
    users: collection(db, 'auth_users'),
    access: collection(db, 'auth_access'),
    tokens: collection(db, 'auth_tokens'),
    tiers: collection(db, 'auth_tiers'),
    phones: collection(db, 'auth_phones'),
    emails: collection(db, 'auth_emails'),
    primaryEmails: collection(db, 'auth_primary_emails'),
    magicLinks: collection(db, 'auth_magic_links'),
    changes: collection(db, 'auth_changes'),
    groups: collection(db, 'auth_groups'),
    members: collection(db, 'auth_group_members'),
  };
  await ensureIndexes(c.users, [{ key: { tier: 1 } }]);
  await ensureIndexes(c.access, [{ key: { user: 1 } }, { key: { owner: 1 } }, { key: { topic: 1 } }]);
  await ensureIndexes(c.tokens, [{ key: { user: 1 } }]);
  await ensureIndexes(c.phones, [{ key: { user: 1 } }]);
  await ensureIndexes(c.emails, [{ key: { user: 1 } }]);
  await ensureIndexes(c.primaryEmails, [{ key: { uid: 1 } }]);
  await ensureIndexes(c.members, [{ key: { user: 1 } }, { key: { group: 1 } }]);
  await ensureIndexes(c.magicLinks, [{ key: { uid: 1 } }, { key: { expires: 1 } }]);
  return c;
}

/** A new user's `uid`: unique without coordination. */
export function newUid(): string {
  return new ObjectId().toHexString();
}

/** MongoDB's duplicate-key error: another insert of the same `_id` won. */
export { isDuplicateKey } from '../duplicate-key.js';
