import { errors } from '../../model/errors.js';
import { isTrueWord } from '../../transports/http/params.js';

/**
 * One bare address (RFC 5321's Mailbox): a local part without spaces, quotes, brackets or
 * separators, and a domain of letters, digits and hyphens in dot-separated labels. Display
 * names ("Phil <phil@example.com>") and lists are refused: ntfy hands the value to its
 * relay as the one RCPT TO, where either fails.
 */
const mailbox = /^[^\s@<>()[\]\\,;:"]{1,64}@(?=.{1,253}$)[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)*$/u;

/**
 * The X-Email value (one address) as the recipient to forward to. `yes`, `true` or `1`
 * ask for the user's first verified address; Tocsin verifies none, so they are refused,
 * as is anything that is not one address. ntfy answers 200 to both and its relay fails.
 */
export function forwardAddress(value: string): string {
  if (isTrueWord(value)) throw errors.badRequest.wrap('no verified e-mail address (this server verifies none)');
  if (!mailbox.test(value)) throw errors.badRequest.wrap('e-mail address invalid');
  return value;
}
