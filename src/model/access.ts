/** ntfy's access model (user/types.go): roles, permissions, and the anonymous user `*`. */

export type Role = 'admin' | 'user';

export interface Permission {
  read: boolean;
  write: boolean;
}

/** The user name of access entries that apply to everyone, anonymous visitors included. */
export const everyone = '*';

export interface User {
  name: string;
  role: Role;
  /** bcrypt hash of the password. */
  hash: string;
}

/** One access entry: a topic or a pattern with `*` wildcards, and what it allows. */
export interface Grant {
  topic: string;
  permission: Permission;
}

export const readWrite: Permission = { read: true, write: true };

const permissionWords: Record<string, Permission> = {
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
};

/** A permission word with ntfy's aliases (rw, ro, wo, none ...); undefined when it is none of them. */
export function parsePermission(word: string): Permission | undefined {
  return permissionWords[word.trim().toLowerCase()];
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
