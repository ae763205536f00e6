/** ntfy's access model (user/types.go): roles, permissions, and the anonymous user `*`. */
import { randomBytes } from 'node:crypto';
import type { Prefs, Tier } from './account.js';
import type { TokenScope } from './token-scope.js';

export type Role = 'admin' | 'user';

/** A role word as `tocsin user change-role` and PUT /v1/users take it; the message both give for another. */
export const isRole = (word: string): word is Role => word === 'admin' || word === 'user';
export const roleRule = "role must be either 'user' or 'admin'";

export interface Permission {
  read: boolean;
  write: boolean;
}

/** The user name of access entries that apply to everyone, anonymous visitors included. */
export const everyone = '*';

/**
 * The built-in group of every logged-in user (issue 38): its entries apply to any user,
 * never to anonymous visitors, and rank with the user's own by pattern length (the user's
 * own first at equal length), before everyone's. `*` is no user-name character, so no user
 * can be called this.
 */
export const authenticated = '*authenticated';

/** Names access entries may have that are no user's: everyone, and every logged-in user. */
export function isBuiltIn(name: string): boolean {
  return name === everyone || name === authenticated;
}

/**
 * Named groups (issue 38): up to 64 letters, digits, `-`, `_` and `.`. A group's access
 * entries are held by `*` and its name, as the built-in group's (`*authenticated`): `*`
 * is no user-name character, so no user can hold them, and `authenticated` itself is
 * taken (groupNameError).
 */
export const groupNamePattern = /^[-_.a-zA-Z0-9]{1,64}$/;

/** Why `name` cannot be a group's, ntfy-style; undefined when it can. */
export function groupNameError(name: string): string | undefined {
  if (!groupNamePattern.test(name)) return `invalid group name ${JSON.stringify(name.slice(0, 80))}: letters, digits, - _ and . only, up to 64`;
  if (groupHolder(name) === authenticated) return `group name ${name} is reserved for the built-in group of every logged-in user`;
  return undefined;
}

/** Who holds a group's access entries: `*` and its name. */
export function groupHolder(group: string): string {
  return `*${group}`;
}

/** The named group whose entries `holder` holds (not the built-in ones); undefined for a user, everyone, or every logged-in user. */
export function holderGroup(holder: string): string | undefined {
  return holder.startsWith('*') && !isBuiltIn(holder) ? holder.slice(1) : undefined;
}

export interface User {
  name: string;
  role: Role;
  /** bcrypt hash of the password. */
  hash: string;
  tier?: Tier;
  /** The topic the web app listens on for account changes (`st_...`). */
  syncTopic: string;
  prefs: Prefs;
  /** Made from server.yml (`auth-users`): changed only there. */
  provisioned: boolean;
  /** The token this request authenticated with, if it used one (ntfy's User.Token). */
  token?: string;
  /** That token's scopes, when it is limited to some topics (model/token-scope.ts). */
  scopes?: readonly TokenScope[];
}

/** One access entry: a topic or a pattern with `*` wildcards, and what it allows. */
export interface Grant {
  topic: string;
  permission: Permission;
}

/** bcrypt cost of new passwords, as ntfy's DefaultUserPasswordBcryptCost. */
export const bcryptCost = 10;

export const readWrite: Permission = { read: true, write: true };

// A Map: a user's word such as `constructor` must not find Object.prototype's.
const permissionWords = new Map<string, Permission>(Object.entries({
  'read-write': readWrite,
  rw: readWrite,
  'read-only': { read: true, write: false },
  read: { read: true, write: false },
  ro: { read: true, write: false },
  'write-only': { read: false, write: true },
  write: { read: false, write: true },
  wo: { read: false, write: true },
  'deny-all': { read: false, write: false },
  deny: { read: false, write: false },
  none: { read: false, write: false },
}));

/** A permission word with ntfy's aliases (rw, ro, wo, none ...); undefined when it is none of them. */
export function parsePermission(word: string): Permission | undefined {
  return permissionWords.get(word.trim().toLowerCase());
}

/** ntfy's name for a permission, as the CLI prints it. */
export function permissionName(p: Permission): string {
  if (p.read && p.write) return 'read-write';
  if (p.read) return 'read-only';
  if (p.write) return 'write-only';
  return 'deny-all';
}

/** ntfy's rules for user names (user.AllowedUsername). */
export const usernamePattern = /^[-_.+@a-zA-Z0-9]+$/;
/** A topic or a topic pattern: topic characters and `*`. */
export const topicPatternPattern = /^[-_A-Za-z0-9*]{1,64}$/;

/**
 * The topics an access entry's pattern covers: `*` any run of characters, every other
 * character itself, case-sensitively (ntfy 2.24).
 */
export function topicPatternRegExp(pattern: string): RegExp {
  const parts = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}

const nameAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `prefix` and `length` random lowercase letters and digits, as ntfy's tokens (`tk_`, 29)
 * and sync topics (`st_`, 16). Bytes at or above 252 are skipped, so each character is
 * uniform: tokens are secrets.
 */
export function randomName(prefix: string, length: number): string {
  let out = prefix;
  while (out.length < prefix.length + length) {
    for (const b of randomBytes(length)) {
      if (b < 252 && out.length < prefix.length + length) out += nameAlphabet[b % nameAlphabet.length];
    }
  }
  return out;
}

/** A new access token: `tk_` and 29 characters. */
export function newToken(): string {
  return randomName('tk_', 29);
}

/** A token as ntfy makes them. */
export const tokenPattern = /^tk_[a-z0-9]{29}$/;

/**
 * Tokens a user keeps at most (ntfy's tokenMaxCount, user/manager.go): each web login
 * makes one, so a browser that never logs out would otherwise grow the table forever.
 */
export const tokenMaxCount = 60;
