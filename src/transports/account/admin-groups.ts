import { authenticated, groupHolder, groupNameError, permissionName, usernamePattern } from '../../model/access.js';
import { errors } from '../../model/errors.js';
import { AlreadyExists, NotFound, Provisioned, type AuthStore } from '../../store/auth-store.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { accounts, requireAdmin, text } from './session.js';

/**
 * The admin API's named groups (issue 38; ntfy has none), shaped like ntfy's /v1/users:
 * JSON bodies, `{"success":true}`, ntfy-style error rows, admins only (40101 otherwise).
 * Names are checked by model/access.ts groupNameError, as `tocsin group` checks them.
 */

const success = { success: true };

/** At most this many groups in one answer; `offset` pages on, so one request's answer stays bounded. */
export const groupPageSize = 200;

/**
 * GET /v1/groups?offset=N: groups by name with their members and access entries, and `next`
 * when more follow; `authenticated` holds the entries of every logged-in user's group, when it has any.
 */
export async function listGroups(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  await requireAdmin(ctx, req);
  const raw = req.query.get('offset') ?? '0';
  if (!/^\d{1,9}$/.test(raw)) throw errors.badRequest.wrap('offset must be a whole number');
  const offset = Number(raw);
  const store = accounts(ctx).store;
  const all = await store.groups();
  const page = [];
  for (const g of all.slice(offset, offset + groupPageSize)) {
    page.push({ name: g.name, members: g.members, ...(await grantsJson(store, groupHolder(g.name))), ...(g.provisioned && { provisioned: true }) });
  }
  const everyUser = await grantsJson(store, authenticated);
  ex.json({ groups: page, ...(offset + groupPageSize < all.length && { next: offset + groupPageSize }), ...(everyUser.grants && { authenticated: everyUser }) });
}

/** `{grants}` of a user or group as the admin API lists them (ntfy's permission words), or `{}` for none. */
export async function grantsJson(store: AuthStore, holder: string): Promise<{ grants?: { topic: string; permission: string }[] }> {
  const grants = (await store.grants(holder)).map((g) => ({ topic: g.topic, permission: permissionName(g.permission) }));
  return grants.length > 0 ? { grants } : {};
}

/** POST /v1/groups {"name"}: a new, empty group. */
export async function addGroup(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const name = await groupName(ctx, ex, req);
  await storeChange(accounts(ctx).store.addGroup(name));
  ex.json(success);
}

/** DELETE /v1/groups {"name"}: removes a group, its memberships and its access entries. */
export async function removeGroup(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const name = await groupName(ctx, ex, req);
  await storeChange(accounts(ctx).store.removeGroup(name));
  ex.json(success);
}

/** PUT /v1/groups/members {"group","username"}: adds an existing user to an existing group. */
export async function addMember(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const [group, username] = await membership(ctx, ex, req);
  await storeChange(accounts(ctx).store.addMember(group, username));
  ex.json(success);
}

/** DELETE /v1/groups/members {"group","username"}: ends a membership the CLI or the API made. */
export async function removeMember(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const [group, username] = await membership(ctx, ex, req);
  await storeChange(accounts(ctx).store.removeMember(group, username));
  ex.json(success);
}

/** The body's checked `name` (40067), read only once the caller is known to be an admin. */
async function groupName(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<string> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  return checkedGroup(text(await body, 'name'));
}

async function membership(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<[string, string]> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const fields = await body;
  const username = text(fields, 'username');
  if (!usernamePattern.test(username)) throw errors.userNotFound;
  return [checkedGroup(text(fields, 'group')), username];
}

/** A group name `tocsin group` would take, or 40067 with its reason. */
export function checkedGroup(name: string): string {
  const error = groupNameError(name);
  if (error !== undefined) throw errors.groupInvalid.wrap(error);
  return name;
}

/** The store's typed failures as the API's rows: a missing user, group or membership, a taken name, server.yml's own. */
async function storeChange(change: Promise<void>): Promise<void> {
  try {
    await change;
  } catch (err) {
    if (err instanceof NotFound) throw errors.groupNotFound.wrap(err.message);
    if (err instanceof AlreadyExists) throw errors.groupExists;
    if (err instanceof Provisioned) throw errors.provisionedGroupChange;
    throw err;
  }
}
