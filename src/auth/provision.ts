import { everyone, parsePermission, tokenPattern, topicPatternPattern, usernamePattern, type Permission, type Role } from '../model/access.js';
import type { AuthStore } from '../store/auth-store.js';

export interface Provisioning {
  users: readonly string[];
  access: readonly string[];
  tokens: readonly string[];
}

const bcryptHash = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * Applies `auth-users`, `auth-access` and `auth-tokens` from server.yml (ntfy 2.14), so an
 * instance can be set up declaratively: listed users are created or brought to the listed
 * hash and role, listed entries and tokens are added or updated. Entries made with the
 * CLI stay. A malformed line stops the start, naming it.
 */
export async function provision(store: AuthStore, p: Provisioning): Promise<void> {
  const users = p.users.map(parseUser);
  const access = p.access.map(parseAccess);
  const tokens = p.tokens.map(parseToken);
  for (const u of users) {
    if (await store.user(u.name)) {
      await store.changePassword(u.name, u.hash);
      await store.changeRole(u.name, u.role);
    } else {
      await store.addUser(u.name, u.hash, u.role);
    }
  }
  for (const a of access) await store.allowAccess(a.user, a.topic, a.permission);
  for (const t of tokens) {
    const existing = (await store.tokens(t.user)).find((k) => k.token === t.token);
    if (existing) await store.removeToken(t.user, t.token);
    await store.addToken(t.user, { token: t.token, label: t.label, expires: 0, lastAccess: existing?.lastAccess ?? 0, lastOrigin: existing?.lastOrigin ?? '' });
  }
}

/** The three colon-separated fields of a user or access line. */
function three(key: string, line: string): [string, string, string] {
  const parts = line.split(':');
  if (parts.length !== 3) throw new Error(`invalid ${key} entry ${JSON.stringify(line)}: expected three fields separated by colons`);
  return parts as [string, string, string];
}

function parseUser(line: string): { name: string; hash: string; role: Role } {
  const [name, hash, role] = three('auth-users', line);
  if (!usernamePattern.test(name)) throw new Error(`invalid auth-users entry ${JSON.stringify(line)}: bad user name`);
  if (!bcryptHash.test(hash)) throw new Error(`invalid auth-users entry for ${name}: the password must be a bcrypt hash ($2a$10$...)`);
  if (role !== 'admin' && role !== 'user') throw new Error(`invalid auth-users entry for ${name}: role must be admin or user`);
  return { name, hash, role };
}

function parseAccess(line: string): { user: string; topic: string; permission: Permission } {
  const [user, topic, word] = three('auth-access', line);
  const permission = parsePermission(word);
  if (user !== everyone && !usernamePattern.test(user)) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: bad user name`);
  if (!topicPatternPattern.test(topic)) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: bad topic pattern`);
  if (!permission) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: permission must be read-write, read-only, write-only or deny-all`);
  return { user, topic, permission };
}

function parseToken(line: string): { user: string; token: string; label: string } {
  const [user = '', token = '', ...label] = line.split(':');
  if (!usernamePattern.test(user)) throw new Error(`invalid auth-tokens entry ${JSON.stringify(line)}: bad user name`);
  if (!tokenPattern.test(token)) throw new Error(`invalid auth-tokens entry for ${user}: a token is tk_ and 29 lowercase letters or digits`);
  return { user, token, label: label.join(':') };
}
