import { isIP, type LookupFunction } from 'node:net';
import { postPush } from '../push/push-request.js';
import { isPublicAddress, NotPublicHost, publicLookup, type HostResolver } from '../push/public-address.js';

/**
 * A Callback URL is a stranger's choice of where this server sends a request: bounded as
 * Web Push's requests are (push-request.ts, public-address.ts). It is connected to only
 * at a public address (a literal one checked here, as Node connects to it without a
 * lookup; a name's on the address connected to, so DNS rebinding cannot slip past), within
 * a timeout; a redirect is not followed; the answer's body is never read (the connection
 * closes at its status line); what is sent is the receipt alone (a few hundred bytes).
 */
const callbackTimeoutMs = 10_000;
const lookupTimeoutMs = 3_000;

export class CallbackSender {
  private readonly lookup: LookupFunction | undefined;

  /** `allowPrivate` (repeat-callback-allow-private) lets the URL reach any address. */
  constructor(resolve: HostResolver, allowPrivate: boolean) {
    this.lookup = allowPrivate ? undefined : publicLookup(resolve, lookupTimeoutMs);
  }

  /** POSTs `receipt` as JSON to `url`; resolves with the answer's status, rejects when none came. */
  async send(url: string, receipt: object): Promise<number> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (this.lookup && isIP(host) !== 0 && !isPublicAddress(host)) throw new NotPublicHost(`${host} is not a public address`);
    const body = Buffer.from(JSON.stringify(receipt));
    return postPush(url, { 'Content-Type': 'application/json', 'User-Agent': 'Tocsin' }, body, { lookup: this.lookup, timeoutMs: callbackTimeoutMs, dropAnswer: true });
  }
}
