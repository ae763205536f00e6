import bcrypt from 'bcryptjs';
import { bcryptCost, usernamePattern, type User } from '../../model/access.js';
import { errors } from '../../model/errors.js';
import { opens, selectorOf } from '../../model/magic-link.js';
import { nowSeconds } from '../../model/message.js';
import { Provisioned } from '../../store/auth-store.js';
import { clientAddressOf } from '../client.js';
import type { ServerContext } from '../context.js';
import { Gate, runGuards } from '../guards/guard.js';
import { requestRate } from '../guards/request-rate.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { accountMailer, mailLink } from './account-mail.js';
import { accounts, text } from './session.js';

/** Password reset by a mailed magic link (ntfy 2.25). */

const success = { success: true };

/**
 * POST /v1/account/password/reset/request: `identifier` is a user name or a verified
 * primary address. Every call spends one of the address's account actions (42906 once
 * they are gone; sign-ups share them), matched or not, and every call that gets that far
 * is answered the same `{"success":true}` before any account is looked up, so neither the
 * answer nor its timing tells whether an account exists. The link goes to the account's
 * verified primary address; a provisioned account, or one without such an address, gets none,
 * and an account gets 3 at most at once, then one an hour, wherever the requests come from.
 */
export async function requestPasswordReset(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const mailer = accountMailer(ctx);
  await runGuards([requestRate('own')], new Gate(ctx, req, []));
  const identifier = text(await body, 'identifier').trim();
  if (!accounts(ctx).accountActions.take(clientAddressOf(ctx, req))) throw errors.tooManyAccountActions;
  ex.json(success);
  if (identifier === '') return;
  try {
    const target = await resetTarget(ctx, identifier);
    if (target && accounts(ctx).resetMails.take(target.user.name)) await mailLink(ctx, mailer, 'password-reset', target.user.name, target.address);
  } catch (err) {
    ctx.log.warn({ err }, 'password reset link not sent');
  }
}

/**
 * Whose password a reset of `identifier` is for: a verified primary address first, so a
 * user named like someone else's address cannot have that person's link; else a user name.
 */
async function resetTarget(ctx: ServerContext, identifier: string): Promise<{ user: User; address: string } | undefined> {
  const store = accounts(ctx).store;
  const user = (await store.userByPrimaryEmail(identifier)) ?? (usernamePattern.test(identifier) ? await store.user(identifier) : undefined);
  if (!user || user.provisioned) return undefined;
  const primary = (await store.emails(user.name)).find((e) => e.primary);
  return primary && { user, address: primary.address };
}

/**
 * POST /v1/account/password/reset: `token` from the link and the new `password`. Needs the
 * user store only, not the relay. A token that opens no reset link, or one of a provisioned
 * user, is 40054; the user's access tokens stay valid, as ntfy's.
 */
export async function resetPassword(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const store = accounts(ctx).store;
  await runGuards([requestRate('own')], new Gate(ctx, req, []));
  const fields = await body;
  const token = text(fields, 'token');
  const password = text(fields, 'password');
  if (token === '') throw errors.resetLinkInvalid;
  if (password === '') throw errors.badRequest;
  const selector = selectorOf(token);
  const link = selector === undefined ? undefined : await store.magicLink(selector);
  if (!opens(token, link, 'password-reset', nowSeconds())) throw errors.resetLinkInvalid;
  // bcrypt (~60 ms) only for a token that opens a link: a guesser never gets this far.
  const hash = await bcrypt.hash(password, bcryptCost);
  let done: boolean;
  try {
    done = await store.resetPassword(link.selector, hash);
  } catch (err) {
    if (err instanceof Provisioned) throw errors.resetLinkInvalid;
    throw err;
  }
  if (!done) throw errors.resetLinkInvalid;
  ctx.log.info({ user_name: link.username }, 'password reset');
  ex.json(success);
}
