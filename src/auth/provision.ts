import { groupNameError, holderGroup, isBuiltIn, parsePermission, tokenPattern, topicPatternPattern, usernamePattern, type Role } from '../model/access.js';
import type { AuthStore, Provisioning } from '../store/auth-store.js';

export interface ProvisioningLines {
  users: readonly string[];
  access: readonly string[];
  tokens: readonly string[];
  groups: readonly string[];
}

type ProvisionedGroup = NonNullable<Provisioning['groups']>[number];

const bcryptHash = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * Applies `auth-users`, `auth-access` and `auth-tokens` from server.yml (ntfy 2.14), and
 * Tocsin's `auth-groups`, so an instance can be set up declaratively: what they list is
 * made exactly so, what an earlier start provisioned and they no longer list is removed,
 * and what the CLI or the API made stays. Provisioned users, tokens, groups and
 * memberships cannot be changed by the CLI or the API. A malformed line, or an entry,
 * token or membership of a user (or an entry of a group) the file does not provision,
 * stops the start, naming it.
 */
export async function provision(store: AuthStore, lines: ProvisioningLines): Promise<void> {
  const users = lines.users.map(parseUser);
  const grants = lines.access.map(parseAccess);
  const tokens = lines.tokens.map(parseToken);
  const groups = lines.groups.map(parseGroup);
  const roles = new Map(users.map((u) => [u.name, u.role]));
  const groupNames = new Set<string>();
  for (const g of groups) {
    if (groupNames.has(g.name)) throw new Error(`group ${g.name} is listed more than once in auth-groups`);
    groupNames.add(g.name);
    const stranger = g.members.find((m) => !roles.has(m));
    if (stranger !== undefined) throw new Error(`user ${stranger} is not a provisioned user, refusing to add them to group ${g.name}`);
  }
  for (const g of grants) {
    const group = holderGroup(g.user);
    if (group !== undefined) {
      if (!groupNames.has(group)) throw new Error(`group ${group} is not a provisioned group, refusing to add ACL entry`);
      continue;
    }
    if (!isBuiltIn(g.user) && !roles.has(g.user)) throw new Error(`user ${g.user} is not a provisioned user, refusing to add ACL entry`);
    if (roles.get(g.user) === 'admin') throw new Error(`adding access control entries is not allowed for admin roles for user ${g.user}`);
  }
  for (const t of tokens) {
    if (!roles.has(t.user)) throw new Error(`user ${t.user} is not a provisioned user, refusing to add tokens`);
  }
  await store.provision({ users, grants, tokens, groups });
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

/** An access line's holder: a user, `*` (everyone), `*authenticated`, or `*NAME` for a named group (as `tocsin access --group` stores it). */
function parseAccess(line: string): Provisioning['grants'][number] {
  const [user, topic, word] = three('auth-access', line);
  const permission = parsePermission(word);
  const group = holderGroup(user);
  if (group !== undefined && groupNameError(group) !== undefined) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: bad group name`);
  if (group === undefined && !isBuiltIn(user) && !usernamePattern.test(user)) throw new Error(`invalid auth-access entry ${JSON.stringify(line)}: bad user name`);
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

/** `NAME:member1,member2` (`NAME:` for none); a member listed twice is one member. */
export function parseGroup(line: string): ProvisionedGroup {
  const parts = line.split(':');
  if (parts.length !== 2) throw new Error(`invalid auth-groups entry ${JSON.stringify(line)}: expected a group name and its members separated by a colon`);
  const [name, rest] = parts as [string, string];
  const list = rest.trim();
  const nameError = groupNameError(name);
  if (nameError !== undefined) throw new Error(`invalid auth-groups entry ${JSON.stringify(line)}: ${nameError}`);
  const members = list === '' ? [] : list.split(',').map((m) => m.trim());
  const bad = members.find((m) => !usernamePattern.test(m));
  if (bad !== undefined) throw new Error(`invalid auth-groups entry for ${name}: bad member name ${JSON.stringify(bad)}`);
  return { name, members: [...new Set(members)] };
}
