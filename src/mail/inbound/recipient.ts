import { namePattern } from '../../transports/publish/parse.js';

/** Why a recipient is refused: ntfy's words, sent back in the 451 reply. */
export class RecipientRefusal extends Error {}

export interface Recipient {
  topic: string;
  /** The access token of `<prefix><topic>+<token>@<domain>`, '' without one. */
  token: string;
}

/**
 * ntfy's rule for RCPT TO (smtpSession.Rcpt): the address must end in `@<domain>`
 * (case-insensitive here: domains are, RFC 5321 §2.4; ntfy compares exactly), start with
 * `<prefix>` when one is set, and what is left is a topic, optionally `+<token>`.
 */
export function parseRecipient(address: string, domain: string, prefix: string): Recipient {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) throw new RecipientRefusal('invalid domain');
  let local = address.slice(0, at);
  if (prefix !== '') {
    if (!local.startsWith(prefix)) throw new RecipientRefusal('invalid address');
    local = local.slice(prefix.length);
  }
  // As ntfy's strings.Split: the token is what lies between the first and a second '+'.
  const [topic = '', token = ''] = local.split('+');
  if (!namePattern.test(topic)) throw new RecipientRefusal('invalid topic');
  return { topic, token };
}
