import { isBuiltIn, parsePermission, tokenPattern, topicPatternPattern, usernamePattern, type Role } from '../model/access.js';
import type { AuthStore, Provisioning } from '../store/auth-store.js';

export interface ProvisioningLines {
  users: readonly string[];
  access: readonly string[];
  tokens: readonly string[];
}

const bcryptHash = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * Applies `auth-users`, `auth-access` and `auth-tokens` from server.yml (ntfy 2.14), so an
 * instance can be set up declaratively: what they list is made exactly so, what an
 * earlier start provisioned and they no longer list is removed, and what the CLI or the
 * API made stays. Provisioned users and tokens cannot be changed by the CLI or the API.
 * A malformed line, or an entry or token of a user the file does not provision, stops
 * the start, naming it.
 */
export async function provision(store: AuthStore, lines: ProvisioningLines): Promise<void> {
  const users = lines.users.map(parseUser);
  const grants = lines.access.map(parseAccess);
  const tokens = lines.tokens.map(parseToken);
  const roles = new Map(users.map((u) => [u.name, u.role]));
  for (const g of grants) {
    if (!isBuiltIn(g.user) && !roles.has(g.user)) throw new Error(`user ${g.user} is not a provisioned user, refusing to add ACL entry`);
    if (roles.get(g.user) === 'admin') throw new Error(`adding access control entries is not allowed for admin roles for user ${g.user}`);
  }
  for (const t of tokens) {
    if (!roles.has(t.user)) throw new Error(`user ${t.user} is not a provisioned user, refusing to add tokens`);
  }
  await store.provision({ users, grants, tokens });
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

function parseAccess(line: string): Provisioning['grants'][number] {
  const [user, topic, word] = three('auth-access', line);
  const permission = parsePermission(word);
  if (!isBuiltIn(user) && !usernamePattern.test(user)) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: bad user name`);
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
