import { errors } from '../../model/errors.js';
import { isTrueWord } from '../../transports/http/params.js';

/**
 * One bare address (RFC 5321's Mailbox): a local part without spaces, quotes, brackets or
 * separators, and a domain of letters, digits and hyphens in dot-separated labels. Display
 * names ("Phil <phil@example.com>") and lists are refused: ntfy hands the value to its
 * relay as the one RCPT TO, where either fails. Stricter than ntfy's `^[^\s,;]+@[^\s,;]+$`,
 * and bounded (64 + 253 characters), as it is what the account API stores too.
 */
const mailbox = /^[^\s@<>()[\]\\,;:"]{1,64}@(?=.{1,253}$)[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)*$/u;

export function isMailbox(value: string): boolean {
  return mailbox.test(value);
}

/**
 * The X-Email value as asked: one address, or a true word (`yes`, `true`, `1`: the user's
 * own primary address, which the email-address guard resolves); anything else is 40050, as
 * ntfy 2.21.
 */
export function forwardAddress(value: string): string {
  if (!isTrueWord(value) && !isMailbox(value)) throw errors.emailAddressInvalid;
  return value;
}
