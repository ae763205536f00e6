import { errors } from '../../model/errors.js';
import { isTrueWord } from '../http/params.js';
import type { Gate, Guard, ParsedPublish } from './guard.js';

/** The X-Email address, resolved (see mailAddressOf). */
export const emailAddress: Guard<ParsedPublish> = async (subject) => {
  if (subject.email) subject.email = await mailAddressOf(subject.gate, subject.email);
};

/**
 * The address a publish asks to mail (ntfy 2.21/2.25's convertEmailAddress), before its
 * e-mail limit: `yes` is the user's primary verified address, or their first verified one
 * (anonymous 40053, none 40052), whatever smtp-sender-verify says; a literal address goes
 * as is, unless smtp-sender-verify asks it to be one the user verified (anonymous 40053,
 * another 40052).
 */
export async function mailAddressOf(gate: Gate, email: string): Promise<string> {
  const own = isTrueWord(email);
  if (!own && !gate.ctx.config.smtpSenderVerify) return email;
  const user = gate.user;
  if (!user) throw errors.anonymousEmailNotAllowed;
  const verified = gate.ctx.access ? (await gate.ctx.access.store.emails(user.name)).filter((e) => !e.pending) : [];
  const address = own ? (verified.find((e) => e.primary) ?? verified[0])?.address : verified.find((e) => e.address === email)?.address;
  if (address === undefined) throw errors.emailAddressNotVerified;
  return address;
}
