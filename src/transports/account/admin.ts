import bcrypt from 'bcryptjs';
import { authenticated, bcryptCost, everyone, groupHolder, isRole, parsePermission, roleRule, topicPatternPattern, usernamePattern, type Role, type User } from '../../model/access.js';
import { readBuildInfo, type BuildInfo } from '../../build-info.js';
import { errors } from '../../model/errors.js';
import type { AuthStore } from '../../store/auth-store.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { checkedGroup, grantsJson } from './admin-groups.js';
import { accounts, requireAdmin, text, unlessProvisioned } from './session.js';

const success = { success: true };
let build: BuildInfo | undefined;

/** GET /v1/version (ntfy 2.17): the server's version, commit and build date, for admins only (40101 otherwise, as ntfy's ensureAdmin). */
export async function getVersion(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  if (!ctx.access) throw errors.unauthorized; // no users, so no admin: ntfy's ensureAdmin answers the same
  await requireAdmin(ctx, req);
  ex.json((build ??= readBuildInfo()));
}

/**
 * GET /v1/users: every user with role, tier and access entries; admins first, then users,
 * then the anonymous user `*` with everyone's entries, as ntfy lists its `*` row
 * (user/manager.go Users, server/server_admin.go handleUsersGet).
 */
export async function listUsers(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  await requireAdmin(ctx, req);
  const store = accounts(ctx).store;
  const users: { name: string; role: string; tier?: { code: string } }[] = [...(await store.users()), anonymous];
  const listed = [];
  for (const u of users) listed.push({ username: u.name, role: u.role, ...(u.tier && { tier: u.tier.code }), ...(await grantsJson(store, u.name)) });
  ex.json(listed);
}

/** POST /v1/users: a new regular user (never an admin, as ntfy), from a password or a bcrypt `hash`. */
export async function addUser(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const fields = await body;
  const username = text(fields, 'username');
  const tier = text(fields, 'tier');
  if (!usernamePattern.test(username) || (text(fields, 'password') === '' && text(fields, 'hash') === '')) {
    throw errors.badRequest.wrap('username invalid, or password/password_hash missing');
  }
  const store = accounts(ctx).store;
  if (await store.user(username)) throw errors.userExists;
  if (tier && !(await store.tier(tier))) throw errors.tierInvalid;
  await store.addUser(username, await passwordHash(fields), 'user');
  if (tier) await store.changeTier(username, tier);
  ex.json(success);
}

/**
 * PUT /v1/users: change a regular user's password or tier, or add them if missing (ntfy's).
 * Tocsin's own (issue 38): `"tier": null` takes the tier away (`tocsin user change-tier USER -`;
 * ntfy reads "" and null as "unchanged"), and `"role"` makes an existing user admin or user
 * (`tocsin user change-role`), which ntfy's API cannot. Adding a user takes a password.
 */
export async function updateUser(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const caller = await requireAdmin(ctx, req);
  const fields = await body;
  const username = text(fields, 'username');
  const tier = text(fields, 'tier');
  const dropTier = fields.tier === null;
  const role = roleOf(text(fields, 'role'));
  const hasPassword = text(fields, 'password') !== '' || text(fields, 'hash') !== '';
  if (!usernamePattern.test(username)) throw errors.badRequest.wrap('username invalid');
  if (!hasPassword && tier === '' && !dropTier && !role) throw errors.badRequest.wrap('need to provide at least one of "password", "password_hash", "tier" or "role"');
  const store = accounts(ctx).store;
  if (tier && !(await store.tier(tier))) throw errors.tierInvalid;
  const existing = await store.user(username);
  // As ntfy: an admin's password and tier are the CLI's business; their role is changed here.
  if (existing?.role === 'admin' && (hasPassword || tier !== '' || dropTier)) throw errors.forbidden;
  if (role) await unlessProvisioned(store.changeRole(await roleChangeable(store, caller, existing, role), role));
  // ntfy adds one with an empty password here, whom anyone could then log in as.
  if (!existing && !hasPassword) throw errors.badRequest.wrap('password or password_hash is required to add a user');
  if (!existing) await store.addUser(username, await passwordHash(fields), 'user');
  else if (hasPassword) await unlessProvisioned(store.changePassword(username, await passwordHash(fields)));
  if (tier !== '' || dropTier) await store.changeTier(username, tier || undefined);
  ex.json(success);
}

/**
 * Whose role a PUT may change: an existing user, never the caller (an admin who demoted
 * themself would lock themself out) nor the last admin. ntfy's `user change-role` refuses
 * neither, but it runs on the server's own machine, where an admin can always be made again.
 */
async function roleChangeable(store: AuthStore, caller: User, user: User | undefined, role: Role): Promise<string> {
  if (!user) throw errors.userNotFound;
  if (user.role === 'admin' && role === 'user' && (await store.users()).filter((u) => u.role === 'admin').length === 1) throw errors.forbidden.wrap('cannot demote the last admin');
  if (user.name === caller.name) throw errors.forbidden.wrap('cannot change your own role');
  return user.name;
}

/** DELETE /v1/users: removes a regular user; admins are removed with the CLI only. */
export async function deleteUser(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const username = text(await body, 'username');
  const store = accounts(ctx).store;
  const user = await existingUser(store, username);
  if (user.role !== 'user') throw errors.unauthorized.wrap('can only remove regular users from API');
  await unlessProvisioned(store.removeUser(username));
  await ctx.monitors?.store.removeByUser(username);
  ex.json(success);
}

/** PUT/POST /v1/users/access: grants `permission` on `topic` (a pattern) to `username`, or to a named `group` (Tocsin's own). */
export async function allowAccess(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const fields = await body;
  const store = accounts(ctx).store;
  const holder = await entriesHolder(store, fields);
  const permission = parsePermission(text(fields, 'permission'));
  if (!permission) throw errors.permissionInvalid;
  const topic = text(fields, 'topic');
  if (!topicPatternPattern.test(topic)) throw errors.topicInvalid;
  await store.allowAccess(holder, topic, permission);
  ex.json(success);
}

/** DELETE /v1/users/access: removes `username`'s (or `group`'s) entry for `topic`, or all of them without one. */
export async function resetAccess(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const fields = await body;
  const store = accounts(ctx).store;
  await store.resetAccess(await entriesHolder(store, fields), text(fields, 'topic') || undefined);
  ex.json(success);
}

/** The body's `role`, undefined when absent; 40000 for a word `tocsin user change-role` would refuse. */
function roleOf(word: string): Role | undefined {
  if (word === '') return undefined;
  if (!isRole(word)) throw errors.badRequest.wrap(roleRule);
  return word;
}

/** ntfy keeps everyone as a user row named `*`: the admin API finds it like any user. */
const anonymous = { name: everyone, role: 'anonymous' };

/** A user, or `*` (so everyone's entries can be changed, as in ntfy); 40031 otherwise. */
async function existingUser(store: AuthStore, username: string): Promise<{ name: string; role: string }> {
  if (username === everyone) return anonymous;
  const user = usernamePattern.test(username) ? await store.user(username) : undefined;
  if (!user) throw errors.userNotFound;
  return user;
}

/**
 * Who holds the entries a body names: `group` (issue 38: `authenticated` for every
 * logged-in user, else a named group, 40067/40068) instead of `username`, as `tocsin access --group`.
 */
async function entriesHolder(store: AuthStore, fields: Record<string, unknown>): Promise<string> {
  const group = text(fields, 'group');
  if (group === '') return (await existingUser(store, text(fields, 'username'))).name;
  if (text(fields, 'username') !== '') throw errors.badRequest.wrap('give either "username" or "group"');
  if (group === 'authenticated') return authenticated;
  const name = checkedGroup(group);
  if (!(await store.groups()).some((g) => g.name === name)) throw errors.groupNotFound;
  return groupHolder(name);
}

/** A given bcrypt `hash` is stored as is (provisioning tools send one); a password is hashed. */
async function passwordHash(fields: Record<string, unknown>): Promise<string> {
  const hash = text(fields, 'hash');
  return hash !== '' ? hash : bcrypt.hash(text(fields, 'password'), bcryptCost);
}
