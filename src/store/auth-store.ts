import type { Grant, Permission, Role, User } from '../model/access.js';

export interface Token {
  token: string;
  label: string;
  /** Unix seconds; 0 never expires. */
  expires: number;
  /** Unix seconds of the last use (0: never used) and the address it came from. */
  lastAccess: number;
  lastOrigin: string;
}

/**
 * The users, access entries and tokens of access control (the `auth-file`). Every call
 * reads the store anew: the CLI changes it from another process while the server runs.
 * Names are checked by the callers; a missing user makes a change throw `NotFound`.
 */
export interface AuthStore {
  user(name: string): Promise<User | undefined>;
  /** The owner of an unexpired token. */
  userByToken(token: string): Promise<User | undefined>;
  touchToken(token: string, when: number, origin: string): Promise<void>;
  /**
   * The entry that decides `topic` for `username`, as ntfy orders them: the user's own
   * entries before everyone's, then the longest (most specific) pattern, then write
   * before read. Patterns match case-insensitively, as ntfy's SQL LIKE does.
   */
  permission(username: string, topic: string): Promise<Permission | undefined>;
  users(): Promise<User[]>;
  addUser(name: string, hash: string, role: Role): Promise<void>;
  removeUser(name: string): Promise<void>;
  changePassword(name: string, hash: string): Promise<void>;
  changeRole(name: string, role: Role): Promise<void>;
  /** A user's entries (or everyone's, with `*`), most specific first. */
  grants(username: string): Promise<Grant[]>;
  allowAccess(username: string, topic: string, permission: Permission): Promise<void>;
  /** Removes one entry, all of a user's, or every entry of every user. */
  resetAccess(username?: string, topic?: string): Promise<void>;
  addToken(username: string, token: Token): Promise<void>;
  tokens(username: string): Promise<Token[]>;
  /** Whether the token existed. */
  removeToken(username: string, token: string): Promise<boolean>;
  close(): Promise<void>;
}

export class NotFound extends Error {}
export class AlreadyExists extends Error {}
