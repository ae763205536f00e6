import { isMailbox } from '../../mail/outbound/address.js';
import { errors } from '../../model/errors.js';
import { opens, selectorOf } from '../../model/magic-link.js';
import { nowSeconds } from '../../model/message.js';
import { AlreadyExists, NotFound, type AccountEmail } from '../../store/auth-store.js';
import { visitorOf } from '../client.js';
import type { ServerContext } from '../context.js';
import { Gate, runGuards } from '../guards/guard.js';
import { requestRate } from '../guards/request-rate.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { accountMailer, mailLink } from './account-mail.js';
import { accounts, requireUser, syncAccount, text } from './session.js';

/** The e-mail addresses of an account (ntfy 2.21, reworked with magic links in 2.25). */

const success = { success: true };

/** The `email` of a body: one bare address, else 40050. */
export function addressOf(fields: Record<string, unknown>): string {
  const address = text(fields, 'email');
  if (!isMailbox(address)) throw errors.emailAddressInvalid;
  return address;
}

/** `emails` of GET /v1/account, in ntfy's shape: `primary` and `pending` only when true. */
export function emailsJson(emails: readonly AccountEmail[]): Record<string, string | boolean>[] {
  return emails.map((e) => ({ address: e.address, ...(e.primary && { primary: true }), ...(e.pending && { pending: true }) }));
}

/**
 * PUT /v1/account/email: mails a verification link to `email`; the address is the user's
 * once it is followed. A user whose e-mail limit is 0 may not (40101, as ntfy); one the
 * user verified already is 40907; each link costs one of the visitor's e-mails (42902), so
 * nobody can mail-bomb an address through this.
 */
export async function addEmail(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const mailer = accountMailer(ctx);
  const address = addressOf(await body);
  if (user.role === 'user' && (user.tier ? user.tier.emailLimit === 0 : ctx.config.visitorEmailLimitBurst === 0)) throw errors.unauthorized;
  if ((await accounts(ctx).store.emails(user.name)).some((e) => e.address === address && !e.pending)) throw errors.emailExists;
  visitorOf(ctx, req, user).email(Date.now());
  await mailLink(ctx, mailer, 'email-verify', user.name, address);
  await syncAccount(ctx, user);
  ex.json(success);
}

/** POST /v1/account/email/resend: a fresh link for an address waiting for one (40050 otherwise); the old link stops working. */
export async function resendEmail(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const mailer = accountMailer(ctx);
  const address = addressOf(await body);
  if (!(await accounts(ctx).store.emails(user.name)).some((e) => e.address === address && e.pending)) throw errors.emailAddressInvalid;
  visitorOf(ctx, req, user).email(Date.now());
  await mailLink(ctx, mailer, 'email-verify', user.name, address);
  ex.json(success);
}

/**
 * POST /v1/account/email/verify: the landing page hands over the link's token. No login
 * (the link may be opened in another browser); limited like any request. Any token that
 * does not open a link (malformed, unknown, expired, used) is 40051.
 */
export async function verifyEmail(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  accountMailer(ctx);
  await runGuards([requestRate('own')], new Gate(ctx, req, []));
  const token = text(await body, 'token');
  const selector = selectorOf(token);
  const store = accounts(ctx).store;
  const link = selector === undefined ? undefined : await store.magicLink(selector);
  if (!opens(token, link, 'email-verify', nowSeconds()) || !(await store.verifyEmail(link.selector))) throw errors.emailVerificationLinkInvalid;
  const user = await store.user(link.username);
  if (user) await syncAccount(ctx, user);
  ex.json(success);
}

/** DELETE /v1/account/email: removes a verified or pending address; removing the primary leaves none. */
export async function removeEmail(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  accountMailer(ctx);
  await accounts(ctx).store.removeEmail(user.name, addressOf(await body));
  await syncAccount(ctx, user);
  ex.json(success);
}

/** POST /v1/account/email/primary: a verified address of the user (40052) that is no other account's primary (40908). */
export async function setPrimaryEmail(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const address = addressOf(await body);
  try {
    await accounts(ctx).store.setPrimaryEmail(user.name, address);
  } catch (err) {
    if (err instanceof NotFound) throw errors.emailAddressNotVerified;
    if (err instanceof AlreadyExists) throw errors.emailPrimaryElsewhere;
    throw err;
  }
  await syncAccount(ctx, user);
  ex.json(success);
}
