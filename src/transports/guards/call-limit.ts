import { errors } from '../../model/errors.js';
import { isTrueWord } from '../http/params.js';
import type { Gate, Guard, ParsedPublish } from './guard.js';

/** The X-Call number, resolved and paid for (see callNumberOf). */
export const callLimit: Guard<ParsedPublish> = async (subject) => {
  if (subject.call) subject.call = await callNumberOf(subject.gate, subject.call);
};

/**
 * The number a publish asks to call (ntfy's convertPhoneNumber, then its call limiter):
 * only a user may ask (40035), for one of their verified numbers, or with `yes` the first
 * of them (40034), and one of the day's calls is taken (42910).
 */
export async function callNumberOf(gate: Gate, call: string): Promise<string> {
  const user = gate.user;
  if (!user || !gate.ctx.access) throw errors.anonymousCallsNotAllowed;
  const numbers = await gate.ctx.access.store.phoneNumbers(user.name);
  const number = isTrueWord(call) ? numbers[0] : numbers.find((n) => n === call);
  if (number === undefined) throw errors.phoneNumberNotVerified;
  gate.visitor.call(Date.now());
  return number;
}
