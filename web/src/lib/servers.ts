import { apiBase } from './config.js';

/** Why a base URL typed for another server is refused (an i18n key's last part). */
export type BaseUrlProblem = 'invalid' | 'scheme' | 'credentials';

/** Longer than any server's address; a bound on what is kept in storage and put in paths. */
const maxBaseUrlLength = 256;

/**
 * A server's base URL in one form, so one server is one key (its credentials are found by it,
 * exactly): http or https only (the app speaks nothing else), no user name or password in it
 * (those go in the settings' credentials, never in a URL that is shown and stored in the
 * clear), no query or fragment, no trailing slash; the URL parser lower-cases the host and
 * drops a default port.
 */
export function parseBaseUrl(input: string): { url: string } | { problem: BaseUrlProblem } {
  const text = input.trim();
  if (text.length > maxBaseUrlLength) return { problem: 'invalid' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'scheme' };
  if (url.username || url.password) return { problem: 'credentials' };
  if (url.search || url.hash) return { problem: 'invalid' };
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** Where a subscription lives: undefined is the app's own server, as every subscription was before other servers. */
export interface Located {
  baseUrl?: string;
  topic: string;
}

export const serverOf = (s: Located): string => s.baseUrl ?? apiBase;

export const topicUrlOf = (s: Located): string => `${serverOf(s)}/${s.topic}`;

/**
 * What tells subscriptions apart in the app (connections, states, the list shown): the topic
 * on the app's server, as before, and the topic URL on another (a topic has no `/` or `:`).
 */
export const subscriptionKey = (s: Located): string => (s.baseUrl ? topicUrlOf(s) : s.topic);

/** A server as the sidebar shows it: its URL without the scheme (ntfy's shortUrl). */
export const shortUrl = (baseUrl: string): string => baseUrl.replace(/^https?:\/\//, '');

/**
 * A server as one path segment of the app's routes, /{server}/{topic} (ntfy's, e.g.
 * /ntfy.sh/alerts): its short URL with a path's slashes escaped, so the segment stays one.
 */
export const serverSegment = (baseUrl: string): string => shortUrl(baseUrl).replaceAll('/', '%2F');

/** The app's path of a subscription: `topic` on its own server, `server/topic` on another. */
export const pathOf = (s: Located): string => (s.baseUrl ? `${serverSegment(s.baseUrl)}/${s.topic}` : s.topic);

/** The other servers the subscriptions are on, each once, in the order first subscribed. */
export const serversInUse = (subs: readonly Located[]): string[] => [...new Set(subs.flatMap((s) => (s.baseUrl ? [s.baseUrl] : [])))];

/** A topic as the app names it: `topic` on its own server, `host/topic` on another (ntfy's topicShortUrl). */
export const labelOf = (s: Located): string => (s.baseUrl ? `${shortUrl(s.baseUrl)}/${s.topic}` : s.topic);
