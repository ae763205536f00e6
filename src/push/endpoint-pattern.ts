import { isIP } from 'node:net';

/**
 * One web-push-allowed-endpoints entry, `scheme://host[:port]/path-prefix`: a push
 * service's endpoints are the URLs with that scheme and port whose host is the entry's
 * (or, for `*.example.com`, any name under example.com) and whose path starts with the
 * prefix. The browser hands the server its endpoint and the server POSTs to it, so each
 * part is matched on the URL as parsed, never on its text (issue 33, finding 5).
 */
export interface EndpointPattern {
  protocol: 'https:' | 'http:';
  /** The host, or for `*.` the domain every matching host is under. */
  host: string;
  anySubdomain: boolean;
  /** '' for the scheme's default port. */
  port: string;
  pathPrefix: string;
}

/** Longer than any browser's endpoint (FCM's, the longest, are ~250 characters). */
const maxEndpointLength = 2048;
const wildcard = 'wildcard--';

/**
 * Parses an entry; throws, naming the problem, one that is not of the form above. http,
 * an IP address and ports are for a push service in the operator's own network, so they
 * need web-push-allow-private-endpoints.
 */
export function parseEndpointPattern(entry: string, allowPrivate: boolean): EndpointPattern {
  const anySubdomain = entry.includes('://*.');
  const marked = entry.replace('://*.', `://${wildcard}.`);
  if (marked.includes('*')) throw new Error('* may only stand as the first label of the host, as in https://*.example.com/');
  let url: URL;
  try {
    url = new URL(marked);
  } catch {
    throw new Error('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not an https:// URL');
  if (url.username || url.password || url.search || url.hash) throw new Error('a user, query or fragment has no place in it');
  const privateOnly = url.protocol === 'http:' || isIpLiteral(url.hostname) || url.port !== '';
  if (privateOnly && !allowPrivate) throw new Error('http://, an IP address or a port needs web-push-allow-private-endpoints');
  const host = anySubdomain ? url.hostname.slice(wildcard.length + 1) : url.hostname;
  return { protocol: url.protocol, host, anySubdomain, port: url.port, pathPrefix: url.pathname };
}

/**
 * Why a browser's endpoint is refused, or undefined when one of `patterns` allows it. It
 * must be a URL exactly as the WHATWG parser writes it back (no `..`, no backslash, which
 * Node's fetch reads as `/`, no upper-case or numeric host forms), without a user,
 * percent-encoded separators in its host or path, or an IP address a pattern does not name.
 */
export function endpointRefusal(endpoint: string, patterns: readonly EndpointPattern[]): string | undefined {
  if (endpoint.length > maxEndpointLength) return `longer than ${maxEndpointLength} characters`;
  if (hasBackslashOrControl(endpoint)) return 'a backslash, space or control character';
  if (/%(?:2f|5c|2e|40|3f|23|00)/i.test(endpoint.replace(/[?#].*$/s, ''))) return 'a percent-encoded separator in its host or path';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.href !== endpoint) return 'not written as its parsed form';
  if (url.username || url.password) return 'a user name or password';
  if (isIpLiteral(url.hostname) && !patterns.some((p) => !p.anySubdomain && p.host === url.hostname)) return 'an IP address';
  return patterns.some((p) => matches(p, url)) ? undefined : 'not at an allowed push service';
}

function matches(p: EndpointPattern, url: URL): boolean {
  const host = p.anySubdomain ? url.hostname.endsWith(`.${p.host}`) : url.hostname === p.host;
  return url.protocol === p.protocol && host && url.port === p.port && url.pathname.startsWith(p.pathPrefix);
}

/** A backslash, a space, or a C0 control or DEL (the WHATWG parser drops tabs and newlines inside a URL). */
function hasBackslashOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x5c || c === 0x7f) return true;
  }
  return false;
}

const isIpLiteral = (hostname: string): boolean => hostname.startsWith('[') || isIP(hostname) !== 0;
