import { tokenPattern, usernamePattern } from '../../model/access.js';
import { errors } from '../../model/errors.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { tokenJson } from './account.js';
import { accounts, requireAdmin, text, unlessProvisioned } from './session.js';

/**
 * Any user's tokens for an admin (issue 38; ntfy's admin API has none, `tocsin token list`
 * shows the same): listed as /v1/account lists one's own (label, expiry, last access,
 * scopes), at most tokenMaxCount per user, so the answer stays bounded; revoked by value.
 */

/** GET /v1/users/tokens?username=NAME */
export async function listUserTokens(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  await requireAdmin(ctx, req);
  const username = await existingUsername(ctx, req.query.get('username') ?? '');
  ex.json({ tokens: (await accounts(ctx).store.tokens(username)).map(tokenJson) });
}

/** DELETE /v1/users/tokens {"username","token"}: 40401 for no such token of theirs, 40906 for a provisioned one. */
export async function revokeUserToken(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  const fields = await body;
  const username = await existingUsername(ctx, text(fields, 'username'));
  const token = text(fields, 'token');
  if (!tokenPattern.test(token)) throw errors.badRequest.wrap('token invalid');
  if (!(await unlessProvisioned(accounts(ctx).store.removeToken(username, token)))) throw errors.notFound;
  ex.json({ success: true });
}

async function existingUsername(ctx: ServerContext, username: string): Promise<string> {
  if (!usernamePattern.test(username) || !(await accounts(ctx).store.user(username))) throw errors.userNotFound;
  return username;
}
