import { phoneNumberPattern } from '../../calls/phone-number.js';
import { CodeNotApproved, failureFields, VerificationGone } from '../../calls/twilio.js';
import type { User } from '../../model/access.js';
import { errors } from '../../model/errors.js';
import { AlreadyExists } from '../../store/auth-store.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { accounts, requireUser, syncAccount, text } from './session.js';

const success = { success: true };
/** ntfy has no code for it (it adds the number whatever the code), so the generic one with a reason. */
const wrongCode = errors.badRequest.wrap('phone number verification code incorrect');

/**
 * PUT /v1/account/phone/verify: Twilio Verify sends a code to `number` by `channel` (sms
 * or call). Only a user on a tier that allows calls, or an admin, may (40101, as ntfy).
 */
export async function verifyPhone(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const { user, calls, fields } = await phoneRequest(ctx, ex, req);
  const number = numberOf(fields);
  const channel = text(fields, 'channel');
  if (channel !== 'sms' && channel !== 'call') throw errors.phoneVerifyChannelInvalid;
  if (user.role === 'user' && !user.tier?.callLimit) throw errors.unauthorized;
  if ((await accounts(ctx).store.phoneNumbers(user.name)).includes(number)) throw errors.phoneNumberExists;
  await twilioAsked(ctx, user, number, () => calls.twilio.sendCode(number, channel));
  await syncAccount(ctx, user);
  ex.json(success);
}

/**
 * PUT /v1/account/phone: `code` is the one Twilio Verify sent to `number`; once Twilio
 * approves it the number is the user's (41001 when no verification is under way, 40904
 * when they have it already).
 */
export async function addPhone(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const { user, calls, fields } = await phoneRequest(ctx, ex, req);
  const number = numberOf(fields);
  const code = text(fields, 'code');
  await twilioAsked(ctx, user, number, () => calls.twilio.checkCode(number, code));
  try {
    await accounts(ctx).store.addPhoneNumber(user.name, number);
  } catch (err) {
    if (err instanceof AlreadyExists) throw errors.phoneNumberExists;
    throw err;
  }
  await syncAccount(ctx, user);
  ex.json(success);
}

/** DELETE /v1/account/phone: `number` is no longer the user's (nothing happens when it was not). */
export async function removePhone(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const { user, fields } = await phoneRequest(ctx, ex, req);
  await accounts(ctx).store.removePhoneNumber(user.name, numberOf(fields));
  await syncAccount(ctx, user);
  ex.json(success);
}

/** ntfy's ensureUser, then ensureCallsEnabled (404 without twilio-account), then the JSON body. */
async function phoneRequest(ctx: ServerContext, ex: Exchange, req: RequestInfo) {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  if (!ctx.calls) throw errors.notFound;
  return { user, calls: ctx.calls, fields: await body };
}

function numberOf(fields: Record<string, unknown>): string {
  const number = text(fields, 'number');
  if (!phoneNumberPattern.test(number)) throw errors.phoneNumberInvalid;
  return number;
}

/**
 * A request to Twilio Verify: a code not approved is 400 (ntfy takes any 200 as approval),
 * no verification under way 41001; any other failure is logged and answered 50001.
 */
async function twilioAsked(ctx: ServerContext, user: User, number: string, ask: () => Promise<void>): Promise<void> {
  try {
    await ask();
  } catch (err) {
    if (err instanceof VerificationGone) throw errors.phoneVerificationExpired;
    if (err instanceof CodeNotApproved) throw wrongCode;
    ctx.log.warn({ user: user.name, twilio_to: number, ...failureFields(err) }, 'Twilio Verify request failed');
    throw errors.internal;
  }
}
